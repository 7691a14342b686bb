import type { PublishedLimit, RequestCharge } from '../../wire/requestCharge.js'
import {
  LIGHTER_STANDARD_HEAVY,
  LIGHTER_STANDARD_REQUESTS,
  lighterEndpoint,
  lighterEndpointWeight,
} from './lighterEndpointWeight.js'

/**
 * Lighter's published REST limits per account tier and what each request
 * costs, used by the adapters' budget before sending and by
 * `sim/lighterFake`.
 *
 * Sources:
 * - https://apidocs.lighter.xyz/docs/rate-limits (several crawls): "These
 *   limits apply to both IP address and L1 address"; Builder 240,000,
 *   Plus 120,000, Premium 24,000 weighted requests per rolling minute,
 *   Standard 60 requests per rolling minute (not weighted); "To bypass
 *   IP-based rate limits, clients can authenticate each request so that
 *   only L1-based rate limits apply"; "for non-standard account types,
 *   sendTx and sendTxBatch fall into a separate rate limit bucket …
 *   linked to account type and staked tokens"; Builder accounts: higher
 *   read limits, "excluding sendTx and sendTxBatch; otherwise, standard
 *   account limits apply". Weights: `lighterEndpointWeight.ts`.
 * - api-evangelist/lighter@74746a2a2103542b4c01df5deac36e57abad8c67
 *   rate-limits/lighter-rate-limits.yml (summary of that page,
 *   2026-07-19): "sendTx and sendTxBatch are limited at the L1-address
 *   level only (no IP limit) … Standard accounts remain bound to 60
 *   requests per minute"; premium tx budget 4000/min at 0 staked LIT (up
 *   to 40 000), plus 8000; error codes 23000 Too Many Requests! …
 * - ccxt/ccxt@480f0a7d4c5f4d11bb8b32f9f546fa7751605ca1 ts/src/lighter.ts:
 *   `rateLimit: 1000` ("60 requests per minute - normal account"), codes
 *   23000..23003 are RateLimitExceeded.
 * - Over budget: HTTP 429 `{code: 23000, message: "Too Many Requests!"}`
 *   (sources in `sim/lighterFake/sendLighterRateLimited.ts`).
 *
 * Readings [unverified]: on the standard tier a tx counts in the same
 * per-address 60 as the address's authenticated reads (the page gives
 * the separate bucket to non-standard tiers only); a tx bucket counts
 * requests, not weight, and a sendTxBatch as one request; the premium tx
 * budget is the 0-staked-LIT row (staking and LIT fee credits raise it);
 * the volume quota (`volume_quota_remaining`) is not modelled.
 *
 * @module
 */

/** Lighter's account tiers (`changeAccountTier`; builder on application). */
export const LIGHTER_TIERS = Object.freeze([
  'standard',
  'premium',
  'plus',
  'builder',
] as const)

/** The account tier whose limits apply. */
export type LighterTier = (typeof LIGHTER_TIERS)[number]

const MINUTE = 60_000

/** Reads a minute: requests on standard, weight on the others. */
const READ_BUDGET: Readonly<Record<LighterTier, number>> = {
  standard: LIGHTER_STANDARD_REQUESTS,
  premium: 24_000,
  plus: 120_000,
  builder: 240_000,
}

/** sendTx/sendTxBatch a minute per L1 address, for non-standard tiers. */
const TX_BUDGET: Readonly<Record<Exclude<LighterTier, 'standard'>, number>> = {
  premium: 4_000,
  plus: 8_000,
  builder: LIGHTER_STANDARD_REQUESTS,
}

const limit = (
  id: string,
  capacity: number,
  per: PublishedLimit['per'],
): PublishedLimit => Object.freeze({ id, capacity, windowMs: MINUTE, per })

function build(tier: LighterTier): readonly PublishedLimit[] {
  const read = READ_BUDGET[tier]
  const limits = [limit('ip', read, 'ip'), limit('l1', read, 'account')]
  if (tier === 'standard') {
    for (const [endpoint, cap] of Object.entries(LIGHTER_STANDARD_HEAVY)) {
      limits.push(limit(`ip:${endpoint}`, cap, 'ip'))
      limits.push(limit(`l1:${endpoint}`, cap, 'account'))
    }
  } else {
    limits.push(limit('tx', TX_BUDGET[tier], 'account'))
  }
  return Object.freeze(limits)
}

const BY_TIER = new Map<LighterTier, readonly PublishedLimit[]>()

/**
 * The limits of `tier`, all per rolling minute: `ip` and `l1` (requests
 * on standard, weight otherwise; `l1` per L1 address), `tx` (non-standard
 * sendTx per L1 address), and on standard `ip:<endpoint>` /
 * `l1:<endpoint>` caps for the heavy endpoints.
 * @example lighterLimits('standard')[0] // { id: 'ip', capacity: 60, … }
 */
export function lighterLimits(tier: LighterTier): readonly PublishedLimit[] {
  let limits = BY_TIER.get(tier)
  if (!limits) {
    limits = build(tier)
    BY_TIER.set(tier, limits)
  }
  return limits
}

/**
 * What one request costs before it is sent.
 * @param path the path after `/api/v1/`, e.g. `sendTx`, `orderBookDetails`
 * @param l1Address the L1 address the request is attributed to: an
 *   authenticated read's account owner, or the account a tx acts for;
 *   null for an anonymous read (counted per IP). A tx without one is
 *   counted per IP like a read.
 * @example
 * lighterRequestCharges('standard', 'sendTx', '0xabc…')
 * // [{ limit: 'l1', weight: 1, account: '0xabc…' }]
 */
export function lighterRequestCharges(
  tier: LighterTier,
  path: string,
  l1Address: string | null,
): RequestCharge[] {
  const endpoint = lighterEndpoint(path)
  const account = l1Address?.toLowerCase()
  const tx = endpoint === 'sendTx' || endpoint === 'sendTxBatch'
  if (tx && tier !== 'standard' && account !== undefined) {
    return [{ limit: 'tx', weight: 1, account }]
  }
  const scope = account === undefined ? 'ip' : 'l1'
  const at = (id: string, weight: number): RequestCharge =>
    account === undefined
      ? { limit: id, weight }
      : { limit: id, weight, account }
  if (tier !== 'standard') {
    return [at(scope, lighterEndpointWeight(endpoint))]
  }
  const charges = [at(scope, 1)]
  if (LIGHTER_STANDARD_HEAVY[endpoint] !== undefined) {
    charges.push(at(`${scope}:${endpoint}`, 1))
  }
  return charges
}
