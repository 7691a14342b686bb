import type { Insertable, Updateable } from 'kysely'
import type {
  BindingBatchRecord,
  BindingVenueEntry,
} from '../domain/bindingBatch.js'
import type { BindingBatchRepo } from '../ports/store.js'
import { isoToMicros } from '../util/time.js'
import { claimRows } from './claimRows.js'
import type { BindingBatchesTable } from './database.js'
import type { RepoScope } from './repoScope.js'
import {
  type FieldMap,
  fromRow,
  int,
  json,
  micros,
  nullable,
  text,
  toRow,
} from './rowMappers.js'

const bindingBatchFields: FieldMap<BindingBatchRecord, BindingBatchesTable> = {
  id: text('id'),
  owner: text('owner'),
  nonce: text('nonce'),
  requestHash: text('request_hash'),
  status: text('status'),
  expiresAt: micros('expires_at'),
  venues: json<readonly BindingVenueEntry[], 'venues'>('venues'),
  leaseOwner: nullable(text('lease_owner')),
  leaseExpiresAt: nullable(micros('lease_expires_at')),
  fence: int('fence'),
  nextCheckAt: nullable(micros('next_check_at')),
  createdAt: micros('created_at'),
  updatedAt: micros('updated_at'),
}

/**
 * Venue-binding batches. See {@link BindingBatchRepo}; `venues` is stored as
 * JSON text on both dialects. The (owner, nonce) unique constraint makes an
 * insert of a used prepare nonce throw, however many race.
 */
export function bindingBatchRepo(scope: RepoScope): BindingBatchRepo {
  const read = (row: object) => fromRow(bindingBatchFields, row)
  return {
    async insert(batch) {
      const row = toRow(bindingBatchFields, batch, scope.dialect)
      await scope
        .db()
        .insertInto('binding_batches')
        .values(row as Insertable<BindingBatchesTable>)
        .execute()
    },
    async get(id) {
      const row = await scope
        .db()
        .selectFrom('binding_batches')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst()
      return row === undefined ? undefined : read(row)
    },
    async getByNonce(owner, nonce) {
      const row = await scope
        .db()
        .selectFrom('binding_batches')
        .selectAll()
        .where('owner', '=', owner)
        .where('nonce', '=', nonce)
        .executeTakeFirst()
      return row === undefined ? undefined : read(row)
    },
    async update(id, patch, guard) {
      if (guard?.status?.length === 0) return undefined
      const set = toRow(bindingBatchFields, patch, scope.dialect, [
        'id',
        'owner',
        'nonce',
        'requestHash',
        'createdAt',
      ])
      let query = scope
        .db()
        .updateTable('binding_batches')
        .set(set as Updateable<BindingBatchesTable>)
        .where('id', '=', id)
      if (guard?.status !== undefined) {
        query = query.where('status', 'in', guard.status)
      }
      if (guard?.fence !== undefined) {
        query = query.where('fence', '=', guard.fence)
      }
      const row = await query.returningAll().executeTakeFirst()
      return row === undefined ? undefined : read(row)
    },
    async countCreatedSince(owner, sinceIso) {
      const since = Number(isoToMicros(sinceIso))
      const row = await scope
        .db()
        .selectFrom('binding_batches')
        .select((eb) => eb.fn.countAll().as('count'))
        .where('owner', '=', owner)
        .where('created_at', '>=', since)
        .executeTakeFirstOrThrow()
      return Number(row.count)
    },
    async claim(request) {
      const rows = await claimRows(scope, 'binding_batches', request)
      return rows.map(read)
    },
  }
}
