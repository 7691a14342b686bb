import { sql } from 'kysely'
import type { LockRepo } from '../ports/store.js'
import { isoToMicros } from '../util/time.js'
import type { RepoScope } from './repoScope.js'
import { storedMicros } from './rowMappers.js'

/**
 * Named locks with expiry. `acquire` is one upsert:
 * `INSERT ... ON CONFLICT (name) DO UPDATE ... WHERE expired OR same holder
 * RETURNING`: a row comes back exactly when `holder` holds the lock
 * afterwards. On PostgreSQL concurrent upserts of one name serialize on the
 * row and re-check the condition against the committed winner; SQLite runs
 * one writer at a time.
 */
export function lockRepo(scope: RepoScope): LockRepo {
  return {
    async acquire(name, holder, now, ttlMs) {
      const nowMicros = Number(isoToMicros(now))
      const expiresAt = storedMicros(now) + Math.ceil(ttlMs) * 1000
      const row = await scope
        .db()
        .insertInto('locks')
        .values({ name, holder, expires_at: expiresAt })
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
        .returning('holder')
        .executeTakeFirst()
      return row?.holder === holder
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
