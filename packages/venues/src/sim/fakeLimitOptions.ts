import type { LighterTier } from '../lighter/limits/lighterLimits.js'
import type { PublishedLimit } from '../wire/requestCharge.js'
import {
  createFakeRateLimits,
  type FakeRateLimits,
  type FakeWindowKind,
} from './fakeRateLimits.js'

/**
 * Whether the protocol fakes enforce the venues' published rate limits
 * when a caller does not say: they do, as the venues do. `rateLimits:
 * false` makes a fake only measure (`rateLimitUsage()`).
 */
const FAKE_RATE_LIMITS_DEFAULT = true

/** A fake's `rateLimits` option when it is an object. */
export interface FakeLimitOptions {
  /** refuse over-budget requests the venue's way @default true */
  readonly enforce?: boolean | undefined
  /**
   * Limits replacing the venue's published ones with the same id (e.g.
   * a tiny budget for a test); other limits stay as published.
   */
  readonly limits?: readonly PublishedLimit[] | undefined
  /** Lighter: the tier whose limits apply @default 'standard' */
  readonly lighterTier?: LighterTier | undefined
  /** the limiter's clock @default the fake's `now` */
  readonly now?: (() => number) | undefined
}

/** What `rateLimits` resolves to for one fake. */
interface ResolvedFakeLimits {
  readonly limiter: FakeRateLimits
  readonly limits: readonly PublishedLimit[]
  readonly enforce: boolean
  readonly lighterTier: LighterTier
  /** the limiter's clock */
  readonly now: () => number
}

/**
 * Builds a fake's limiter from its `rateLimits` option: `true` enforces
 * the published limits, `false` only measures them, an object tunes them.
 * @param published the venue's limits (for Lighter: of the chosen tier)
 */
export function resolveFakeLimits(
  option: boolean | FakeLimitOptions | undefined,
  published: (tier: LighterTier) => readonly PublishedLimit[],
  now: () => number,
  window: FakeWindowKind = 'sliding',
): ResolvedFakeLimits {
  const o: FakeLimitOptions =
    typeof option === 'object'
      ? option
      : { enforce: option ?? FAKE_RATE_LIMITS_DEFAULT }
  const lighterTier = o.lighterTier ?? 'standard'
  const overrides = new Map((o.limits ?? []).map((l) => [l.id, l]))
  const base = published(lighterTier)
  const limits = [
    ...base.map((l) => overrides.get(l.id) ?? l),
    ...[...overrides.values()].filter((l) => !base.some((b) => b.id === l.id)),
  ]
  const enforce = o.enforce ?? true
  const clock = o.now ?? now
  const limiter = createFakeRateLimits(limits, clock, { window, enforce })
  return { limiter, limits, enforce, lighterTier, now: clock }
}

/** The client IP the venue would see for a request. */
export function clientIp(req: {
  readonly socket: { readonly remoteAddress?: string | undefined }
}): string {
  return req.socket.remoteAddress ?? 'unknown'
}
