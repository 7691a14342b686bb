import { isObj } from '../../wire/jsonFields.js'
import type { PublishedLimit } from '../../wire/requestCharge.js'

/**
 * Aster's `exchangeInfo.rateLimits` entries to and from PublishedLimit,
 * and the answer header each limit reports on.
 *
 * Sources: asterdex/api-docs@265e024
 * "V3(Recommended)/EN/aster-finance-futures-api-v3.md", sections LIMITS
 * ("X-MBX-USED-WEIGHT-(intervalNum)(intervalLetter)" on every answer,
 * "X-MBX-ORDER-COUNT-(intervalNum)(intervalLetter)" on order answers,
 * counted per IP and per account), ENUM "Rate limiters (rateLimitType)"
 * (REQUEST_WEIGHT, ORDERS; the LIMITS text also names RAW_REQUEST) and
 * "Rate limit intervals" (MINUTE; SECOND, HOUR and DAY are accepted here
 * for the Binance-style API Aster copies [unverified]).
 *
 * Ids: the `rateLimitType` for a 1-minute limit (`REQUEST_WEIGHT`,
 * `ORDERS`), `<type>:<n><letter>` for any other interval (`ORDERS:10S`).
 *
 * @module
 */

/** One `exchangeInfo.rateLimits` entry. */
export interface AsterRateLimitEntry {
  readonly rateLimitType: string
  readonly interval: string
  readonly intervalNum: number
  readonly limit: number
}

const INTERVALS: readonly (readonly [string, string, number])[] = [
  ['DAY', 'D', 86_400_000],
  ['HOUR', 'H', 3_600_000],
  ['MINUTE', 'M', 60_000],
  ['SECOND', 'S', 1_000],
]

/** The `rateLimitType` of a limit id. */
export function asterLimitType(id: string): string {
  return id.split(':')[0] ?? id
}

const SECOND = ['SECOND', 'S', 1_000] as const

/** The largest interval unit that divides `windowMs` (else seconds). */
function unitOf(windowMs: number): readonly [string, string, number] {
  return INTERVALS.find(([, , ms]) => windowMs % ms === 0) ?? SECOND
}

/** `1M`, `10S`: the interval as the headers write it. */
function intervalTag(windowMs: number): string {
  const [, letter, ms] = unitOf(windowMs)
  return `${windowMs / ms}${letter}`
}

/**
 * The answer header that reports a limit's count, or null (RAW_REQUESTS
 * has none).
 * @example asterLimitHeader(ASTER_LIMITS[0]) // 'X-MBX-USED-WEIGHT-1M'
 */
export function asterLimitHeader(limit: PublishedLimit): string | null {
  const type = asterLimitType(limit.id)
  const tag = intervalTag(limit.windowMs)
  if (type === 'REQUEST_WEIGHT') return `X-MBX-USED-WEIGHT-${tag}`
  if (type === 'ORDERS') return `X-MBX-ORDER-COUNT-${tag}`
  return null
}

/**
 * The limits a live `exchangeInfo.rateLimits` publishes; entries that are
 * not well formed are skipped. ORDERS is per account, the rest per IP.
 * @example asterLimitsFromExchangeInfo((await exchangeInfo()).rateLimits)
 */
export function asterLimitsFromExchangeInfo(
  rateLimits: unknown,
): PublishedLimit[] {
  if (!Array.isArray(rateLimits)) return []
  const out: PublishedLimit[] = []
  for (const e of rateLimits) {
    if (!isObj(e) || typeof e.rateLimitType !== 'string') continue
    const unit = INTERVALS.find(([name]) => name === e.interval)
    const n = Number(e.intervalNum)
    const capacity = Number(e.limit)
    if (!unit || !(n > 0) || !(capacity > 0)) continue
    const windowMs = n * unit[2]
    const type = e.rateLimitType
    out.push({
      id: windowMs === 60_000 ? type : `${type}:${n}${unit[1]}`,
      capacity,
      windowMs,
      per: type === 'ORDERS' ? 'account' : 'ip',
    })
  }
  return out
}

/**
 * The `exchangeInfo.rateLimits` entries publishing `limits` (what the
 * fake answers).
 */
export function asterRateLimitEntries(
  limits: readonly PublishedLimit[],
): AsterRateLimitEntry[] {
  return limits.map((l) => {
    const [name, , ms] = unitOf(l.windowMs)
    return {
      rateLimitType: asterLimitType(l.id),
      interval: name,
      intervalNum: l.windowMs / ms,
      limit: l.capacity,
    }
  })
}
