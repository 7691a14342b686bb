import type { RateLimitHit } from '../ports/store.js'

/** Counts one request against `bucket`; the caller turns a denial into 429. */
export interface RateLimiter {
  /** requests allowed per window, shown as X-RateLimit-Limit */
  readonly limit: number
  hit(bucket: string): Promise<RateLimitHit>
}

export interface RateLimitPolicy {
  /** requests allowed in any window of `windowMs` @default 120 */
  readonly limit: number
  /** @default 60_000 */
  readonly windowMs: number
}

export const DEFAULT_RATE_LIMIT: RateLimitPolicy = Object.freeze({
  limit: 120,
  windowMs: 60_000,
})
