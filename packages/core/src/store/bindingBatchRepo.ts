import type {
  BindingBatchRecord,
  BindingBatchStatus,
  BindingVenueEntry,
} from '../domain/bindingBatch.js'
import type { BindingBatchRepo } from '../ports/store.js'
import { isoToMicros } from '../util/time.js'
import type { BindingBatchesTable } from './database.js'
import { LEASE_FIELDS, leasedTable } from './leasedTable.js'
import type { RepoScope } from './repoScope.js'
import { type FieldMap, json, micros, text } from './rowMappers.js'

const bindingBatchFields: FieldMap<BindingBatchRecord, BindingBatchesTable> = {
  id: text('id'),
  owner: text('owner'),
  nonce: text('nonce'),
  requestHash: text('request_hash'),
  status: text('status'),
  expiresAt: micros('expires_at'),
  venues: json<readonly BindingVenueEntry[], 'venues'>('venues'),
  ...LEASE_FIELDS,
  createdAt: micros('created_at'),
  updatedAt: micros('updated_at'),
}

/**
 * Venue-binding batches. See {@link BindingBatchRepo}; `venues` is stored as
 * JSON text on both dialects. The (owner, nonce) unique constraint makes an
 * insert of a used prepare nonce throw, however many race.
 */
export function bindingBatchRepo(scope: RepoScope): BindingBatchRepo {
  const t = leasedTable<
    BindingBatchRecord,
    BindingBatchStatus,
    'binding_batches'
  >(scope, {
    table: 'binding_batches',
    fields: bindingBatchFields,
    immutable: ['id', 'owner', 'nonce', 'requestHash', 'createdAt'],
  })
  return {
    ...t.shared,
    async getByNonce(owner, nonce) {
      const row = await scope
        .db()
        .selectFrom('binding_batches')
        .selectAll()
        .where('owner', '=', owner)
        .where('nonce', '=', nonce)
        .executeTakeFirst()
      return row === undefined ? undefined : t.read(row)
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
  }
}
