import type { Insertable } from 'kysely'
import type { RequestLogRecord } from '../domain/requestLog.js'
import type { RequestLogRepo } from '../ports/store.js'
import type { RequestLogsTable } from './database.js'
import type { RepoScope } from './repoScope.js'
import {
  bool,
  type FieldMap,
  fromRow,
  int,
  micros,
  nullable,
  text,
  toRow,
} from './rowMappers.js'

const requestLogFields: FieldMap<RequestLogRecord, RequestLogsTable> = {
  id: text('id'),
  apiKeyId: text('api_key_id'),
  family: text('family'),
  action: text('action'),
  method: text('method'),
  path: text('path'),
  taskId: nullable(text('task_id')),
  orderId: nullable(text('order_id')),
  httpStatus: int('http_status'),
  errorCode: nullable(text('error_code')),
  replayed: bool('replayed'),
  createdAt: micros('created_at'),
}

/**
 * Request logs per (API key, family), pruned to the newest `keep` rows on
 * every insert (newest = `created_at desc, id desc`). Concurrent inserts may
 * leave a row or two above `keep` until the next insert prunes them.
 */
export function requestLogRepo(scope: RepoScope): RequestLogRepo {
  return {
    async insert(log, keep) {
      const db = scope.db()
      const row = toRow(requestLogFields, log, scope.dialect)
      await db
        .insertInto('request_logs')
        .values(row as Insertable<RequestLogsTable>)
        .execute()
      await db
        .deleteFrom('request_logs')
        .where('api_key_id', '=', log.apiKeyId)
        .where('family', '=', log.family)
        .where(
          'id',
          'not in',
          db
            .selectFrom('request_logs')
            .select('id')
            .where('api_key_id', '=', log.apiKeyId)
            .where('family', '=', log.family)
            .orderBy('created_at', 'desc')
            .orderBy('id', 'desc')
            .limit(Math.max(0, keep)),
        )
        .execute()
    },
    async list(apiKeyId, family, limit) {
      if (limit <= 0) return []
      const rows = await scope
        .db()
        .selectFrom('request_logs')
        .selectAll()
        .where('api_key_id', '=', apiKeyId)
        .where('family', '=', family)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute()
      return rows.map((row) => fromRow(requestLogFields, row))
    },
  }
}
