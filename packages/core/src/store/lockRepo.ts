import { type Kysely, sql } from 'kysely'
import type { LockRepo, NamedLock } from '../ports/store.js'
import { isoToMicros } from '../util/time.js'
import type { Database } from './database.js'
import type { RepoScope } from './repoScope.js'
import { storedMicros } from './rowMappers.js'

/**
 * Takes each of `locks` (distinct names) for its holder until now + ttlMs,
 * where it is free, expired or already that holder's: one upsert,
 * `INSERT ... ON CONFLICT (name) DO UPDATE ... WHERE expired OR same holder
 * RETURNING`. @returns the names now held as asked
 * @internal
 */
export async function takeLocks(
  db: Kysely<Database>,
  locks: readonly NamedLock[],
  now: string,
  ttlMs: number,
): Promise<Set<string>> {
  if (locks.length === 0) return new Set()
  const nowMicros = Number(isoToMicros(now))
  const expiresAt = storedMicros(now) + Math.ceil(ttlMs) * 1000
  const rows = await db
    .insertInto('locks')
    .values(
      locks.map((l) => ({
        name: l.name,
        holder: l.holder,
        expires_at: expiresAt,
      })),
    )
    .onConflict((oc) =>
      oc
        .column('name')
        .doUpdateSet((eb) => ({
          holder: eb.ref('excluded.holder'),
          expires_at: eb.ref('excluded.expires_at'),
        }))
        .where((eb) =>
          eb.or([
            eb('locks.expires_at', '<=', nowMicros),
            eb('locks.holder', '=', eb.ref('excluded.holder')),
          ]),
        ),
    )
    .returning(['name', 'holder'])
    .execute()
  const asked = new Map(locks.map((l) => [l.name, l.holder]))
  return new Set(
    rows.filter((r) => asked.get(r.name) === r.holder).map((r) => r.name),
  )
}

/**
 * Named locks with expiry. `acquire` is one upsert ({@link takeLocks}):
 * `INSERT ... ON CONFLICT (name) DO UPDATE ... WHERE expired OR same holder
 * RETURNING`: a row comes back exactly when `holder` holds the lock
 * afterwards. On PostgreSQL concurrent upserts of one name serialize on the
 * row and re-check the condition against the committed winner; SQLite runs
 * one writer at a time.
 */
export function lockRepo(scope: RepoScope): LockRepo {
  return {
    async acquire(name, holder, now, ttlMs) {
      const taken = await takeLocks(scope.db(), [{ name, holder }], now, ttlMs)
      return taken.has(name)
    },
    async releaseHeldBy(prefix) {
      // substr, not LIKE: a worker id may hold `%` or `_`
      const result = await scope
        .db()
        .deleteFrom('locks')
        .where(sql<string>`substr(holder, 1, ${prefix.length})`, '=', prefix)
        .executeTakeFirst()
      return Number(result.numDeletedRows)
    },
    async release(name, holder) {
      await scope
        .db()
        .deleteFrom('locks')
        .where('name', '=', name)
        .where('holder', '=', holder)
        .execute()
    },
  }
}
