import type { Insertable } from 'kysely'
import type { IdempotencyRecord } from '../domain/idempotency.js'
import type { IdempotencyRepo } from '../ports/store.js'
import type { IdempotencyKeysTable } from './database.js'
import type { RepoScope } from './repoScope.js'
import {
  type FieldMap,
  fromRow,
  int,
  micros,
  text,
  toRow,
} from './rowMappers.js'
import { StoreError } from './storeError.js'

const idempotencyFields: FieldMap<IdempotencyRecord, IdempotencyKeysTable> = {
  scope: text('scope'),
  key: text('key'),
  method: text('method'),
  path: text('path'),
  fingerprint: text('fingerprint'),
  status: int('status'),
  body: text('body'),
  createdAt: micros('created_at'),
}

/**
 * Idempotency records. `claim` is `INSERT ... ON CONFLICT DO NOTHING` and, if
 * nothing was inserted, a read of the existing row. On PostgreSQL a
 * concurrent claim of the same key blocks on the unique index until the
 * first transaction ends; the following READ COMMITTED select then sees the
 * committed row.
 */
export function idempotencyRepo(scope: RepoScope): IdempotencyRepo {
  const get = async (s: string, key: string) => {
    const row = await scope
      .db()
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('scope', '=', s)
      .where('key', '=', key)
      .executeTakeFirst()
    return row === undefined ? undefined : fromRow(idempotencyFields, row)
  }
  return {
    async claim(record) {
      const row = toRow(idempotencyFields, record, scope.dialect)
      const result = await scope
        .db()
        .insertInto('idempotency_keys')
        .values(row as Insertable<IdempotencyKeysTable>)
        .onConflict((oc) => oc.columns(['scope', 'key']).doNothing())
        .executeTakeFirst()
      if ((result.numInsertedOrUpdatedRows ?? 0n) > 0n) {
        return { inserted: true }
      }
      const existing = await get(record.scope, record.key)
      if (existing === undefined) {
        throw new StoreError(
          `idempotency key ${record.scope}/${record.key} conflicted but is gone`,
        )
      }
      return { inserted: false, existing }
    },
    get,
  }
}
