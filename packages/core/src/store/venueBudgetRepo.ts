import type { Kysely } from 'kysely'
import {
  type LogEntry,
  lockOrderTime,
  pruneLog,
  waitToFit,
} from '../limits/weightedLog.js'
import type { VenueBudgetRepo } from '../ports/store.js'
import type { Database } from './database.js'
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
        const stored = await lockedEntries(db, bucket)
        const at = lockOrderTime(
          nowMs,
          stored.map((e) => e.at),
        )
        const live = pruneLog(stored, at, windowMs)
        const wait = waitToFit(live, at, windowMs, ceiling, weight)
        if (wait === 0) live.push({ at, weight })
        if (wait === 0 || live.length !== stored.length) {
          await writeEntries(db, bucket, live)
        }
        // from the caller's clock
        return wait === 0 ? 0 : wait + (at - nowMs)
      })
    },
    release(bucket, reservedAtMs, windowMs, weight) {
      return scope.atomic(async (db) => {
        const stored = await lockedEntries(db, bucket)
        const latest = lockOrderTime(
          reservedAtMs,
          stored.map((e) => e.at),
        )
        const live = pruneLog(stored, latest, windowMs)
        // the reservation itself left the window: nothing to give back
        if (reservedAtMs <= latest - windowMs) return
        // never more than is held from then on (a bucket pruned or reset
        // is not driven below what was spent)
        let held = 0
        for (const e of live) if (e.at >= reservedAtMs) held += e.weight
        const back = Math.min(weight, held)
        if (back <= 0) return
        // stamped with the reservation's asked time, which is at or
        // before its entry's: the give-back never outlives it
        live.push({ at: reservedAtMs, weight: -back })
        await writeEntries(db, bucket, live)
      })
    },
  }
}

/**
 * The bucket's entries, its row locked until the transaction ends (an
 * upsert: PostgreSQL holds the row lock, SQLite's writer lock is taken).
 */
async function lockedEntries(
  db: Kysely<Database>,
  bucket: string,
): Promise<LogEntry[]> {
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
  return parseEntries(row.entries)
}

async function writeEntries(
  db: Kysely<Database>,
  bucket: string,
  entries: readonly LogEntry[],
): Promise<void> {
  await db
    .updateTable('venue_budgets')
    .set({ entries: JSON.stringify(entries.map((e) => [e.at, e.weight])) })
    .where('bucket', '=', bucket)
    .execute()
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
