import { type LogEntry, pruneLog, usedWeight, waitToFit } from '@dn/core'
import type { PublishedLimit, RequestCharge } from '../wire/requestCharge.js'

/**
 * The limiter the protocol fakes share: it counts what each request costs
 * against a venue's published limits (`<venue>/limits/`) the way the venue
 * does, so a fake refuses exactly what the venue would, and it keeps the
 * peak of every bucket so a benchmark can check how close a client came.
 *
 * @module
 */

/** How a venue counts its window: an exact rolling log or calendar windows. */
export type FakeWindowKind = 'sliding' | 'fixed'

interface FakeRateLimitsOptions {
  /**
   * `sliding`: at most `capacity` in any `windowMs` (Hyperliquid,
   * Lighter); `fixed`: per calendar window starting at a multiple of
   * `windowMs` (Aster's `X-MBX-USED-WEIGHT-1M` minute). @default 'sliding'
   */
  readonly window?: FakeWindowKind | undefined
  /**
   * Refuse over-budget requests; `false` only measures (every request is
   * counted and the peak may pass the capacity). @default true
   */
  readonly enforce?: boolean | undefined
}

export type FakeChargeResult =
  | {
      readonly ok: true
      /** weight now in this request's bucket of each limit, by limit id */
      readonly used: ReadonlyMap<string, number>
    }
  | {
      readonly ok: false
      /** the exceeded limit that frees up last */
      readonly limit: PublishedLimit
      /** until the request would fit in every bucket */
      readonly retryAfterMs: number
      /** weight in this request's bucket of each limit (nothing counted) */
      readonly used: ReadonlyMap<string, number>
    }

/** One bucket: a limit for one client IP or one account. */
export interface FakeBucketUsage {
  readonly limit: string
  readonly per: PublishedLimit['per']
  /** the client IP or the account */
  readonly subject: string
  readonly capacity: number
  /** accepted requests, ever */
  readonly requests: number
  /** weight in the current window */
  readonly weight: number
  /** requests refused because of this bucket */
  readonly refused: number
  /** the most weight any window ever held (answer-time extras included) */
  readonly peak: number
}

export interface FakeRateLimits {
  /**
   * Counts one request in every bucket its charges name, or in none when
   * one of them would pass its capacity (then it is refused).
   */
  charge(clientIp: string, charges: readonly RequestCharge[]): FakeChargeResult
  /**
   * Counts weight learnt from the answer (e.g. items returned); never
   * refused, so it may push a bucket over and refuse what follows.
   */
  addCharges(clientIp: string, charges: readonly RequestCharge[]): void
  /** Weight in the current window of one bucket. */
  used(clientIp: string, limit: string, account?: string | undefined): number
  usage(): FakeBucketUsage[]
}

interface Bucket {
  readonly limit: PublishedLimit
  readonly subject: string
  entries: LogEntry[]
  requests: number
  refused: number
  peak: number
}

/**
 * A limiter over `limits`. Per-IP buckets are keyed by client IP,
 * per-account ones by the charge's account. Buckets live as long as the
 * limiter (a fake serves a handful of IPs and accounts); their logs are
 * pruned to one window on every touch.
 * @throws {RangeError} (from `charge`) a charge names an unknown limit, or
 *   a per-account limit without an account
 * @example
 * const rl = createFakeRateLimits(HL_LIMITS, Date.now)
 * const r = rl.charge('127.0.0.1', [{ limit: 'weight', weight: 20 }])
 * if (!r.ok) answer429()
 */
export function createFakeRateLimits(
  limits: readonly PublishedLimit[],
  now: () => number,
  options: FakeRateLimitsOptions = {},
): FakeRateLimits {
  const byId = new Map(limits.map((l) => [l.id, l]))
  const fixed = (options.window ?? 'sliding') === 'fixed'
  const enforce = options.enforce ?? true
  const buckets = new Map<string, Bucket>()

  function bucketOf(
    clientIp: string,
    c: { readonly limit: string; readonly account?: string | undefined },
  ) {
    const limit = byId.get(c.limit)
    if (!limit) throw new RangeError(`unknown rate limit ${c.limit}`)
    if (limit.per === 'account' && c.account === undefined) {
      throw new RangeError(`limit ${c.limit} is per account: no account`)
    }
    const subject = limit.per === 'ip' ? clientIp : (c.account as string)
    const key = `${limit.id}\u0000${subject}`
    let b = buckets.get(key)
    if (!b) {
      b = { limit, subject, entries: [], requests: 0, refused: 0, peak: 0 }
      buckets.set(key, b)
    }
    return b
  }

  function weightOf(b: Bucket, t: number): number {
    const { windowMs } = b.limit
    b.entries = fixed
      ? b.entries.filter((e) => e.at >= Math.floor(t / windowMs) * windowMs)
      : pruneLog(b.entries, t, windowMs)
    return usedWeight(b.entries, t, windowMs)
  }

  /** How long until `weight` more fits in `b`. */
  function waitFor(b: Bucket, weight: number, t: number) {
    const { capacity, windowMs } = b.limit
    if (fixed || weight > capacity) {
      return Math.floor(t / windowMs) * windowMs + windowMs - t
    }
    return waitToFit(b.entries, t, windowMs, capacity, weight)
  }

  function add(b: Bucket, weight: number, t: number) {
    b.entries.push({ at: t, weight })
    b.peak = Math.max(b.peak, weightOf(b, t))
  }

  const plan = (clientIp: string, charges: readonly RequestCharge[]) =>
    charges.map((c) => ({ c, b: bucketOf(clientIp, c) }))

  return {
    charge(clientIp, charges) {
      const t = now()
      const planned = plan(clientIp, charges)
      let worst: { limit: PublishedLimit; wait: number } | null = null
      const used = new Map<string, number>()
      for (const { c, b } of planned) {
        const w = weightOf(b, t)
        used.set(b.limit.id, w)
        if (enforce && w + c.weight > b.limit.capacity) {
          const wait = waitFor(b, c.weight, t)
          if (!worst || wait > worst.wait) worst = { limit: b.limit, wait }
          b.refused++
        }
      }
      if (worst) {
        return { ok: false, limit: worst.limit, retryAfterMs: worst.wait, used }
      }
      const counted = new Set<Bucket>()
      for (const { c, b } of planned) {
        add(b, c.weight, t)
        used.set(b.limit.id, weightOf(b, t))
        if (!counted.has(b)) b.requests++
        counted.add(b)
      }
      return { ok: true, used }
    },
    addCharges(clientIp, charges) {
      const t = now()
      for (const { c, b } of plan(clientIp, charges)) add(b, c.weight, t)
    },
    used(clientIp, limit, account) {
      return weightOf(bucketOf(clientIp, { limit, account }), now())
    },
    usage() {
      const t = now()
      return [...buckets.values()].map((b) => ({
        limit: b.limit.id,
        per: b.limit.per,
        subject: b.subject,
        capacity: b.limit.capacity,
        requests: b.requests,
        weight: weightOf(b, t),
        refused: b.refused,
        peak: b.peak,
      }))
    },
  }
}
