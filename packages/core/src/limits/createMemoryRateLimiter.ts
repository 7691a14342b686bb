import type { Clock } from '../ports/clock.js'
import { systemClock } from '../ports/clock.js'
import type { RateLimitHit } from '../ports/store.js'
import {
  DEFAULT_RATE_LIMIT,
  type RateLimiter,
  type RateLimitPolicy,
} from './rateLimiter.js'

export interface MemoryRateLimiterOptions {
  readonly policy?: RateLimitPolicy
  readonly clock?: Clock
  /** buckets kept before idle ones are pruned @default 100_000 */
  readonly maxBuckets?: number
}

/**
 * Exact sliding log for one process: never more than `limit` accepted
 * requests in any `windowMs`. Each bucket keeps at most `limit` timestamps.
 */
export function createMemoryRateLimiter(
  options: MemoryRateLimiterOptions = {},
): RateLimiter {
  const { limit, windowMs } = options.policy ?? DEFAULT_RATE_LIMIT
  const clock = options.clock ?? systemClock
  const maxBuckets = options.maxBuckets ?? 100_000
  const buckets = new Map<string, number[]>()

  function prune(now: number): void {
    for (const [key, hits] of buckets) {
      const last = hits[hits.length - 1]
      if (last === undefined || last <= now - windowMs) buckets.delete(key)
      if (buckets.size <= maxBuckets / 2) break
    }
  }

  return {
    limit,
    async hit(bucket: string): Promise<RateLimitHit> {
      const now = clock.now()
      let hits = buckets.get(bucket)
      if (!hits) {
        if (buckets.size >= maxBuckets) prune(now)
        hits = []
        buckets.set(bucket, hits)
      }
      while (hits.length > 0 && (hits[0] as number) <= now - windowMs) {
        hits.shift()
      }
      const allowed = hits.length < limit
      if (allowed) hits.push(now)
      const oldest = hits[0]
      return {
        allowed,
        remaining: Math.max(0, limit - hits.length),
        resetMs: oldest === undefined ? windowMs : oldest + windowMs - now,
      }
    },
  }
}
