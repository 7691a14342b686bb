import { sql } from 'kysely'
import type { CounterRepo } from '../ports/store.js'
import type { RepoScope } from './repoScope.js'

/**
 * One upsert per call: insert `floor`, or on conflict raise the stored
 * value to max(value + 1, floor) and return it. PostgreSQL serializes
 * concurrent upserts of a name on its row; SQLite has one writer.
 */
export function counterRepo(scope: RepoScope): CounterRepo {
  return {
    async next(name, floor) {
      if (!Number.isSafeInteger(floor))
        throw new RangeError('counter floor must be a safe integer')
      const row = await scope
        .db()
        .insertInto('counters')
        .values({ name, value: floor })
        .onConflict((oc) =>
          oc.column('name').doUpdateSet({
            value: sql`case when counters.value + 1 > excluded.value then counters.value + 1 else excluded.value end`,
          }),
        )
        .returning('value')
        .executeTakeFirstOrThrow()
      return Number(row.value)
    },
  }
}
