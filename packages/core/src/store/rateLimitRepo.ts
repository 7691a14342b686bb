import { lockOrderTime } from '../limits/weightedLog.js'
import type { RateLimitHit, RateLimitRepo } from '../ports/store.js'
import type { RepoScope } from './repoScope.js'

/**
 * Exact sliding-log rate limits. Each bucket is one row holding its hit
 * times (epoch ms) as a JSON array. A hit locks the row with an upsert
 * (`ON CONFLICT DO UPDATE ... RETURNING` holds the row lock on PostgreSQL
 * until the transaction ends; SQLite's `BEGIN IMMEDIATE` serializes
 * writers), so concurrent hits from any number of processes never admit more
 * than `limit` per window.
 */
export function rateLimitRepo(scope: RepoScope): RateLimitRepo {
  return {
    hit(bucket, nowMs, windowMs, limit) {
      return scope.atomic(async (db) => {
        const row = await db
          .insertInto('rate_limits')
          .values({ bucket, hits: '[]' })
          .onConflict((oc) =>
            oc
              .column('bucket')
              .doUpdateSet((eb) => ({ bucket: eb.ref('excluded.bucket') })),
          )
          .returning('hits')
          .executeTakeFirstOrThrow()
        const stored = parseHits(row.hits)
        const { hits, changed, result } = slide(stored, nowMs, windowMs, limit)
        if (changed) {
          await db
            .updateTable('rate_limits')
            .set({ hits: JSON.stringify(hits) })
            .where('bucket', '=', bucket)
            .execute()
        }
        return result
      })
    },
  }
}

/**
 * Prunes, counts and maybe records one hit; pure. The hit is stamped in
 * lock order (`lockOrderTime`), so the log admits at most `limit` in any
 * window.
 */
function slide(
  stored: readonly number[],
  nowMs: number,
  windowMs: number,
  limit: number,
): { hits: number[]; changed: boolean; result: RateLimitHit } {
  const at = lockOrderTime(nowMs, stored)
  const hits = stored.filter((t) => t > at - windowMs)
  const pruned = hits.length !== stored.length
  const allowed = hits.length < limit
  const remaining = allowed ? limit - hits.length - 1 : 0
  if (allowed) hits.push(at)
  // the time until the earliest counted hit leaves, from the caller's clock
  const resetMs =
    hits.length === 0
      ? windowMs
      : hits.reduce((a, b) => Math.min(a, b)) + windowMs - nowMs
  return {
    hits,
    changed: pruned || allowed,
    result: { allowed, remaining, resetMs },
  }
}

function parseHits(raw: string): number[] {
  const value: unknown = JSON.parse(raw)
  return Array.isArray(value)
    ? value.filter((t): t is number => typeof t === 'number')
    : []
}
