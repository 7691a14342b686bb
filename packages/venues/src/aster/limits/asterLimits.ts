import type { PublishedLimit, RequestCharge } from '../../wire/requestCharge.js'
import { asterLimitType } from './asterRateLimitEntries.js'
import { asterOrderCount, asterRequestWeight } from './asterRequestWeight.js'

/**
 * Aster's published Futures V3 limits and what each request costs, used
 * by the adapters' budget before sending and by `sim/asterFake`.
 *
 * Sources:
 * - asterdex/api-docs@265e024
 *   "V3(Recommended)/EN/aster-finance-futures-api-v3.md": LIMITS ("The
 *   limits on the API are based on the IPs", "The order rate limit is
 *   counted against each account", 429 when either is violated, 418 IP
 *   ban "from 2 minutes to 3 days" for clients that keep sending after
 *   429s), the ENUM and exchangeInfo examples (REQUEST_WEIGHT 1 MINUTE
 *   2400, ORDERS 1 MINUTE 1200; no 10-second ORDERS limit is published),
 *   error -1003 TOO_MANY_REQUESTS, -1015 TOO_MANY_ORDERS.
 * - Weights: `asterRequestWeight.ts`; exchangeInfo entries and headers:
 *   `asterRateLimitEntries.ts`.
 * - ccxt/ccxt@01697e39fb136138b495e6f000e8e561c8a3929d ts/src/aster.ts:
 *   `rateLimit: 333` (its own pacing, not a venue limit).
 * - Over budget (429 -1003 / -1015, then 418 bans, Retry-After): see
 *   `sim/asterFake/asterFakeGate.ts`.
 *
 * [unverified] the docs do not say whether a minute is rolling or the
 * calendar minute; `X-MBX-USED-WEIGHT-1M` is the Binance header Aster
 * copies, which counts per calendar minute, and the fake does the same.
 *
 * @module
 */

/** REQUEST_WEIGHT per IP and ORDERS per account, per minute. */
export const ASTER_LIMITS: readonly PublishedLimit[] = Object.freeze([
  Object.freeze({
    id: 'REQUEST_WEIGHT',
    capacity: 2400,
    windowMs: 60_000,
    per: 'ip' as const,
  }),
  Object.freeze({
    id: 'ORDERS',
    capacity: 1200,
    windowMs: 60_000,
    per: 'account' as const,
  }),
])

/**
 * What one request costs before it is sent: its weight in every
 * REQUEST_WEIGHT limit, one in every RAW_REQUESTS limit, and its order
 * count in every ORDERS limit of the signer's `user` (none without one).
 * @param params the encoded query or form body, as sent
 * @param account the signed request's `user` (lowercased here)
 * @param limits the limits to charge: the published ones, or those a
 *   live exchangeInfo lists @default ASTER_LIMITS
 * @example
 * asterRequestCharges('POST', '/fapi/v3/order', params, user)
 * // [{ limit: 'REQUEST_WEIGHT', weight: 1 },
 * //  { limit: 'ORDERS', weight: 1, account: user }]
 */
export function asterRequestCharges(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  params: string,
  account: string | null,
  limits: readonly PublishedLimit[] = ASTER_LIMITS,
): RequestCharge[] {
  const charges: RequestCharge[] = []
  const user = account?.toLowerCase()
  for (const l of limits) {
    const type = asterLimitType(l.id)
    if (type === 'REQUEST_WEIGHT') {
      charges.push({
        limit: l.id,
        weight: asterRequestWeight(method, path, params),
      })
    } else if (type === 'RAW_REQUESTS' || type === 'RAW_REQUEST') {
      charges.push({ limit: l.id, weight: 1 })
    } else if (type === 'ORDERS' && user !== undefined) {
      const n = asterOrderCount(method, path, params)
      if (n > 0) charges.push({ limit: l.id, weight: n, account: user })
    }
  }
  return charges
}
