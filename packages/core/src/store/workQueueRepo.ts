import { type Kysely, sql } from 'kysely'
import type { WorkKind, WorkQueueRepo } from '../ports/store.js'
import { isoToMicros, microsToIso } from '../util/time.js'
import type { ClaimedTable } from './claimRows.js'
import type { Database } from './database.js'
import type { RepoScope } from './repoScope.js'

const TABLE: Readonly<Record<WorkKind, ClaimedTable>> = {
  task: 'tasks',
  order: 'perp_orders',
  binding: 'binding_batches',
}

/**
 * Counts over the leased tables for metrics: what a claim would find due
 * (status, next check passed, lease free or expired) and how long the
 * oldest has waited. Two indexed aggregates, no lock taken.
 */
export function workQueueRepo(scope: RepoScope): WorkQueueRepo {
  // the leased tables share these columns; kysely checks them on one
  const db = () => scope.db() as unknown as Kysely<Pick<Database, 'tasks'>>
  return {
    async depth(kind, statuses, now) {
      if (statuses.length === 0) return { due: 0, oldestDueAt: null }
      const at = Number(isoToMicros(now))
      const row = await db()
        .selectFrom(TABLE[kind] as 'tasks')
        .select((eb) => [
          eb.fn.countAll().as('due'),
          eb.fn.min(eb.fn.coalesce('next_check_at', 'updated_at')).as('oldest'),
        ])
        .where('status', 'in', statuses as never[])
        .where((eb) =>
          eb.or([
            eb('next_check_at', 'is', null),
            eb('next_check_at', '<=', at),
          ]),
        )
        .where((eb) =>
          eb.or([
            eb('lease_expires_at', 'is', null),
            eb('lease_expires_at', '<=', at),
          ]),
        )
        .executeTakeFirst()
      const oldest = row?.oldest as string | number | bigint | null | undefined
      return {
        due: Number(row?.due ?? 0),
        oldestDueAt:
          oldest === null || oldest === undefined ? null : microsToIso(oldest),
      }
    },
    async countByStatus(kind, status) {
      const row = await db()
        .selectFrom(TABLE[kind] as 'tasks')
        .select(sql<number>`count(*)`.as('n'))
        .where('status', '=', status as never)
        .executeTakeFirst()
      return Number(row?.n ?? 0)
    },
  }
}
