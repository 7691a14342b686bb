import type { Clock } from '../ports/clock.js'
import { systemClock } from '../ports/clock.js'
import type { RateLimitHit, Store } from '../ports/store.js'
import {
  DEFAULT_RATE_LIMIT,
  type RateLimiter,
  type RateLimitPolicy,
} from './rateLimiter.js'

export interface StoreRateLimiterOptions {
  readonly store: Store
  readonly policy?: RateLimitPolicy
  readonly clock?: Clock
}

/**
 * Sliding log kept in the database, for several server processes sharing
 * one budget per key. Slower than the in-memory limiter; choose it only when
 * more than one server serves the same keys.
 */
export function createStoreRateLimiter(
  options: StoreRateLimiterOptions,
): RateLimiter {
  const { limit, windowMs } = options.policy ?? DEFAULT_RATE_LIMIT
  const clock = options.clock ?? systemClock
  return {
    limit,
    hit(bucket: string): Promise<RateLimitHit> {
      return options.store.rateLimits.hit(bucket, clock.now(), windowMs, limit)
    },
  }
}
