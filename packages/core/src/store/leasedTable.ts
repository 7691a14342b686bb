import type { Insertable, Kysely, RawBuilder, Updateable } from 'kysely'
import type { ClaimRequest, ListFilter, UpdateGuard } from '../ports/store.js'
import { isoToMicros } from '../util/time.js'
import { type ClaimedTable, claimRows } from './claimRows.js'
import type { Database } from './database.js'
import type { RepoScope } from './repoScope.js'
import {
  type FieldMap,
  fromRow,
  int,
  micros,
  nullable,
  storedMicros,
  text,
  toRow,
} from './rowMappers.js'

/** The lease columns every leased table has, as record fields. */
export const LEASE_FIELDS = {
  leaseOwner: nullable(text('lease_owner')),
  leaseExpiresAt: nullable(micros('lease_expires_at')),
  fence: int('fence'),
  nextCheckAt: nullable(micros('next_check_at')),
}

/** How one leased table maps to its record. */
interface LeasedTableSpec<R, T extends ClaimedTable> {
  readonly table: T
  readonly fields: FieldMap<R, Database[T]>
  /** record fields an update never writes */
  readonly immutable: readonly (keyof R)[]
  /** venue columns `list` requires to be in the filter's venues */
  readonly venueColumns?: readonly (keyof Database[T] & string)[]
}

/**
 * The plumbing shared by the leased tables (`tasks`, `perp_orders`,
 * `binding_batches`): insert, get by id, update with status and fence guards,
 * owner listing newest first, claim, and a count of an owner's rows in some
 * states. Each repository adds what is specific to it.
 */
export function leasedTable<R, S extends string, T extends ClaimedTable>(
  scope: RepoScope,
  spec: LeasedTableSpec<R, T>,
) {
  const { fields, immutable, venueColumns = [] } = spec
  // The tables share these columns; kysely checks them on one of them.
  const name = spec.table as ClaimedTable as 'tasks'
  const db = () => scope.db() as unknown as Kysely<Pick<Database, 'tasks'>>
  const read = (row: object): R => fromRow(fields, row)
  /** insert, get, update and claim: what every leased repository offers */
  const shared = {
    async insert(record: R): Promise<void> {
      const row = toRow(fields, record, scope.dialect)
      await db()
        .insertInto(name)
        .values(row as Insertable<Database['tasks']>)
        .execute()
    },
    async get(id: string): Promise<R | undefined> {
      const row = await db()
        .selectFrom(name)
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst()
      return row === undefined ? undefined : read(row)
    },
    async update(
      id: string,
      patch: Partial<R>,
      guard?: UpdateGuard<S>,
      /** a further condition the row must meet, from the repository */
      also?: RawBuilder<boolean>,
    ): Promise<R | undefined> {
      if (guard?.status?.length === 0) return undefined
      const set = toRow(fields, patch, scope.dialect, immutable)
      let query = db()
        .updateTable(name)
        .set(set as Updateable<Database['tasks']>)
        .where('id', '=', id)
      if (guard?.status !== undefined) {
        query = query.where('status', 'in', guard.status)
      }
      if (guard?.fence !== undefined) {
        query = query.where('fence', '=', guard.fence)
      }
      if (also !== undefined) query = query.where(also)
      const row = await query.returningAll().executeTakeFirst()
      return row === undefined ? undefined : read(row)
    },
    async claim(request: ClaimRequest<S>): Promise<R[]> {
      const rows = await claimRows(scope, spec.table, request)
      return rows.map(read)
    },
    async renewLease(
      id: string,
      until: string,
      guard: { readonly fence: number },
    ): Promise<boolean> {
      // the lease only: updated_at says when the row last changed
      const result = await db()
        .updateTable(name)
        .set({ lease_expires_at: storedMicros(until) })
        .where('id', '=', id)
        .where('fence', '=', guard.fence)
        .executeTakeFirst()
      return result.numUpdatedRows > 0n
    },
  }
  return {
    read,
    shared,
    async list(filter: ListFilter): Promise<R[]> {
      if (filter.venues.length === 0 || filter.limit <= 0) return []
      let query = db()
        .selectFrom(name)
        .selectAll()
        .where('owner', '=', filter.owner)
      for (const column of venueColumns) {
        query = query.where(column as 'long_venue', 'in', filter.venues)
      }
      if (filter.status !== undefined) {
        query = query.where('status', '=', filter.status)
      }
      if (filter.updatedSince !== undefined) {
        const since = Number(isoToMicros(filter.updatedSince))
        query = query.where('updated_at', '>=', since)
      }
      const { after } = filter
      if (after !== undefined) {
        const at = Number(isoToMicros(after.updatedAt))
        query = query.where((eb) =>
          eb.or([
            eb('updated_at', '<', at),
            eb.and([eb('updated_at', '=', at), eb('id', '<', after.id)]),
          ]),
        )
      }
      const rows = await query
        .orderBy('updated_at', 'desc')
        .orderBy('id', 'desc')
        .limit(filter.limit)
        .execute()
      return rows.map(read)
    },
    /**
     * Rows of `owner` whose status is one of `statuses`; with `exceptVenue`,
     * only rows none of whose venue columns name it.
     */
    async countByOwnerIn(
      owner: string,
      statuses: readonly S[],
      exceptVenue?: string,
    ): Promise<number> {
      let query = db()
        .selectFrom(name)
        .select((eb) => eb.fn.countAll().as('count'))
        .where('owner', '=', owner)
        .where('status', 'in', statuses)
      if (exceptVenue !== undefined) {
        for (const column of venueColumns) {
          query = query.where(column as 'long_venue', '!=', exceptVenue)
        }
      }
      const row = await query.executeTakeFirstOrThrow()
      return Number(row.count)
    },
  }
}
