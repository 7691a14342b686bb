import type { Insertable } from 'kysely'
import type { ApiKeyRecord } from '../domain/apiKey.js'
import type { VenueId } from '../domain/venue.js'
import type { ApiKeyRepo } from '../ports/store.js'
import type { ApiKeysTable } from './database.js'
import { recordChange } from './recordChange.js'
import type { RepoScope } from './repoScope.js'
import {
  decimal,
  type FieldMap,
  fromRow,
  json,
  micros,
  nullable,
  storedMicros,
  text,
  toRow,
} from './rowMappers.js'

const apiKeyFields: FieldMap<ApiKeyRecord, ApiKeysTable> = {
  id: text('id'),
  owner: text('owner'),
  env: text('env'),
  venues: json<readonly VenueId[], 'venues'>('venues'),
  maxSizeUsd: decimal('max_size_usd'),
  label: nullable(text('label')),
  secretHash: text('secret_hash'),
  createdAt: micros('created_at'),
  revokedAt: nullable(micros('revoked_at')),
}

/** API keys; `listByOwner` is newest first. */
export function apiKeyRepo(scope: RepoScope): ApiKeyRepo {
  const read = (row: object) => fromRow(apiKeyFields, row)
  return {
    async insert(key) {
      const row = toRow(apiKeyFields, key, scope.dialect)
      await scope
        .db()
        .insertInto('api_keys')
        .values(row as Insertable<ApiKeysTable>)
        .execute()
    },
    async get(id) {
      const row = await scope
        .db()
        .selectFrom('api_keys')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst()
      return row === undefined ? undefined : read(row)
    },
    async listByOwner(owner, env) {
      const rows = await scope
        .db()
        .selectFrom('api_keys')
        .selectAll()
        .where('owner', '=', owner)
        .where('env', '=', env)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute()
      return rows.map(read)
    },
    async revoke(id, at) {
      return scope.atomic(async (db) => {
        const result = await db
          .updateTable('api_keys')
          .set({ revoked_at: storedMicros(at) })
          .where('id', '=', id)
          .where('revoked_at', 'is', null)
          .executeTakeFirst()
        if (result.numUpdatedRows === 0n) return false
        // commits with the revocation: what a key cache checks
        await recordChange(scope, 'revocations')
        return true
      })
    },
  }
}
