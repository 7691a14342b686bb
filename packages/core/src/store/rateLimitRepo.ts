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

/** Prunes, counts and maybe records one hit; pure. */
function slide(
  stored: readonly number[],
  nowMs: number,
  windowMs: number,
  limit: number,
): { hits: number[]; changed: boolean; result: RateLimitHit } {
  const start = nowMs - windowMs
  // Hits at or before the window start are gone; later ones (even ones a
  // skewed clock put after `nowMs`) are kept.
  const hits = stored.filter((t) => t > start)
  const pruned = hits.length !== stored.length
  const counted = hits.filter((t) => t <= nowMs)
  const allowed = counted.length < limit
  const remaining = allowed ? limit - counted.length - 1 : 0
  if (allowed) {
    hits.push(nowMs)
    counted.push(nowMs)
  }
  const resetMs =
    counted.length === 0
      ? windowMs
      : counted.reduce((a, b) => Math.min(a, b)) + windowMs - nowMs
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
