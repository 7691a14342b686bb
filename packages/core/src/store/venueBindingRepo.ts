import type { Insertable } from 'kysely'
import type { VenueBindingRecord } from '../domain/venueBinding.js'
import type { VenueBindingRepo } from '../ports/store.js'
import type { VenueBindingsTable } from './database.js'
import { recordChange } from './recordChange.js'
import type { RepoScope } from './repoScope.js'
import {
  type FieldMap,
  fromRow,
  micros,
  nullable,
  storedMicros,
  text,
  toRow,
} from './rowMappers.js'

const venueBindingFields: FieldMap<VenueBindingRecord, VenueBindingsTable> = {
  id: text('id'),
  owner: text('owner'),
  venue: text('venue'),
  status: text('status'),
  accountIndex: nullable(text('account_index')),
  credentialRef: nullable(text('credential_ref')),
  credentialCiphertext: nullable(text('credential_ciphertext')),
  unusableCode: nullable(text('unusable_code')),
  createdAt: micros('created_at'),
  updatedAt: micros('updated_at'),
}

/**
 * Venue bindings, one per (owner, venue). An upsert onto an existing pair
 * keeps the stored `id` and `createdAt` and replaces everything else.
 * Every write moves the store's binding mark as it commits.
 */
export function venueBindingRepo(scope: RepoScope): VenueBindingRepo {
  const read = (row: object) => fromRow(venueBindingFields, row)
  return {
    async upsert(binding) {
      const row = toRow(venueBindingFields, binding, scope.dialect)
      await scope.atomic(async (db) => {
        await db
          .insertInto('venue_bindings')
          .values(row as Insertable<VenueBindingsTable>)
          .onConflict((oc) =>
            oc.columns(['owner', 'venue']).doUpdateSet((eb) => ({
              status: eb.ref('excluded.status'),
              account_index: eb.ref('excluded.account_index'),
              credential_ref: eb.ref('excluded.credential_ref'),
              credential_ciphertext: eb.ref('excluded.credential_ciphertext'),
              unusable_code: eb.ref('excluded.unusable_code'),
              updated_at: eb.ref('excluded.updated_at'),
            })),
          )
          .execute()
        // commits with the binding: what a credential cache checks
        await recordChange(scope, 'bindings')
      })
    },
    async get(owner, venue) {
      const row = await scope
        .db()
        .selectFrom('venue_bindings')
        .selectAll()
        .where('owner', '=', owner)
        .where('venue', '=', venue)
        .executeTakeFirst()
      return row === undefined ? undefined : read(row)
    },
    async markUnusable(mark) {
      return scope.atomic(async (db) => {
        const result = await db
          .updateTable('venue_bindings')
          .set({
            status: 'unusable',
            unusable_code: mark.code,
            updated_at: storedMicros(mark.updatedAt),
          })
          .where('owner', '=', mark.owner)
          .where('venue', '=', mark.venue)
          .where('status', '=', 'bound')
          .where('credential_ciphertext', '=', mark.credentialCiphertext)
          .executeTakeFirst()
        if (Number(result.numUpdatedRows) === 0) return false
        await recordChange(scope, 'bindings')
        return true
      })
    },
    async listByOwner(owner) {
      const rows = await scope
        .db()
        .selectFrom('venue_bindings')
        .selectAll()
        .where('owner', '=', owner)
        .orderBy('venue')
        .execute()
      return rows.map(read)
    },
  }
}
