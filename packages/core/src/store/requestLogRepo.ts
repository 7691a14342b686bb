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

/** Rows per INSERT: 12 columns each, under every driver's parameter cap. */
const INSERT_CHUNK = 500

/**
 * Request logs per (API key, family), pruned to the newest `keep` rows
 * (newest = `created_at desc, id desc`) once per (key, family) a batch
 * touches. Concurrent inserts may leave a row or two above `keep` until
 * the next insert prunes them.
 */
export function requestLogRepo(scope: RepoScope): RequestLogRepo {
  return {
    async insert(logs, keep) {
      const db = scope.db()
      for (let i = 0; i < logs.length; i += INSERT_CHUNK) {
        const rows = logs
          .slice(i, i + INSERT_CHUNK)
          .map(
            (log) =>
              toRow(
                requestLogFields,
                log,
                scope.dialect,
              ) as Insertable<RequestLogsTable>,
          )
        await db.insertInto('request_logs').values(rows).execute()
      }
      const groups = new Map<string, RequestLogRecord>()
      for (const log of logs) groups.set(`${log.apiKeyId}|${log.family}`, log)
      for (const log of groups.values()) {
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
      }
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
