import {
  type LogEntry,
  lockOrderTime,
  pruneLog,
  waitToFit,
} from '../limits/weightedLog.js'
import type { VenueBudgetRepo } from '../ports/store.js'
import type { RepoScope } from './repoScope.js'

/**
 * Venue budgets shared by a deployment's processes: one row per bucket
 * holding its reservations as JSON `[[atMs, weight], ...]`. A reservation
 * locks the row with an upsert (`ON CONFLICT DO UPDATE ... RETURNING`
 * holds the row lock on PostgreSQL until the transaction ends; SQLite's
 * `BEGIN IMMEDIATE` serializes writers), so concurrent reservations from
 * any number of processes never put more than the ceiling in a window.
 */
export function venueBudgetRepo(scope: RepoScope): VenueBudgetRepo {
  return {
    reserve(bucket, nowMs, windowMs, ceiling, weight) {
      return scope.atomic(async (db) => {
        const row = await db
          .insertInto('venue_budgets')
          .values({ bucket, entries: '[]' })
          .onConflict((oc) =>
            oc
              .column('bucket')
              .doUpdateSet((eb) => ({ bucket: eb.ref('excluded.bucket') })),
          )
          .returning('entries')
          .executeTakeFirstOrThrow()
        const stored = parseEntries(row.entries)
        const at = lockOrderTime(
          nowMs,
          stored.map((e) => e.at),
        )
        const live = pruneLog(stored, at, windowMs)
        const wait = waitToFit(live, at, windowMs, ceiling, weight)
        if (wait === 0) live.push({ at, weight })
        if (wait === 0 || live.length !== stored.length) {
          await db
            .updateTable('venue_budgets')
            .set({
              entries: JSON.stringify(live.map((e) => [e.at, e.weight])),
            })
            .where('bucket', '=', bucket)
            .execute()
        }
        // from the caller's clock
        return wait === 0 ? 0 : wait + (at - nowMs)
      })
    },
  }
}

function parseEntries(raw: string): LogEntry[] {
  const value: unknown = JSON.parse(raw)
  if (!Array.isArray(value)) return []
  const out: LogEntry[] = []
  for (const e of value) {
    if (
      Array.isArray(e) &&
      typeof e[0] === 'number' &&
      typeof e[1] === 'number'
    ) {
      out.push({ at: e[0], weight: e[1] })
    }
  }
  return out
}
