import { isObj } from '../../wire/jsonFields.js'
import type { PublishedLimit, RequestCharge } from '../../wire/requestCharge.js'
import { hlInfoAnswerWeight, hlInfoWeight } from './hlInfoWeight.js'

/**
 * Hyperliquid's published REST limits and what each request costs, used
 * by the adapters' budget before sending and by `sim/hyperliquidFake`.
 *
 * Sources:
 * - https://hyperliquid.gitbook.io/hyperliquid-docs/for-developers/api/rate-limits
 *   "REST requests share an aggregated weight limit of 1200 per minute"
 *   per IP; "All documented exchange API requests have a weight of
 *   1 + floor(batch_length / 40)", batch_length "the length of the array
 *   in the action, e.g. the number of orders in a batched order action";
 *   a batch is "one request for IP based rate limiting".
 * - /info weights: see `hlInfoWeight.ts`.
 * - Over budget: HTTP 429, body `null`, no Retry-After (sources in
 *   `sim/hyperliquidFake/sendHlRateLimited.ts`).
 *
 * Not modelled: the per-address action limit (10 000 initial requests
 * plus 1 per USDC traded, then 1 per 10 s; cancels min(limit + 100000,
 * 2 × limit)); it depends on the account's traded volume, which the
 * client cannot know before sending. Also not modelled: WebSocket and
 * explorer limits (the service uses neither).
 *
 * [unverified] whether the minute is rolling or a calendar minute: the
 * docs say "per minute"; a rolling window is the stricter reading.
 *
 * @module
 */

/**
 * Distinct users an IP's WebSocket user subscriptions may name (docs,
 * "Rate limits and user limits": 10 unique users across user-specific
 * subscriptions).
 */
export const HL_STREAM_USERS_PER_IP = 10

/** The per-IP weight budget (the docs' only REST limit). */
export const HL_LIMITS: readonly PublishedLimit[] = Object.freeze([
  Object.freeze({
    id: 'weight',
    capacity: 1200,
    windowMs: 60_000,
    per: 'ip' as const,
  }),
])

/**
 * The batch length of an `/exchange` action: its orders, cancels or
 * modifies (the docs name orders; cancels and modifies are the other
 * batched actions [unverified that they count the same]). 0 otherwise.
 */
function batchLength(action: unknown): number {
  if (!isObj(action)) return 0
  for (const field of ['orders', 'cancels', 'modifies']) {
    const list = action[field]
    if (Array.isArray(list)) return list.length
  }
  return 0
}

/**
 * The weight of an `/exchange` action: 1 + ⌊batch/40⌋.
 * @example hlExchangeWeight({ type: 'order', orders: new Array(79) }) // 2
 */
export function hlExchangeWeight(action: unknown): number {
  return 1 + Math.floor(batchLength(action) / 40)
}

/**
 * What a request costs before it is sent.
 * @param body the JSON body (`{type, …}` for `/info`, `{action, …}` for
 *   `/exchange`); an unreadable body weighs as "other"
 * @example hlRequestCharges('/info', { type: 'metaAndAssetCtxs' })
 * // [{ limit: 'weight', weight: 20 }]
 */
export function hlRequestCharges(
  path: '/info' | '/exchange',
  body: unknown,
): RequestCharge[] {
  const b = isObj(body) ? body : {}
  const weight =
    path === '/info' ? hlInfoWeight(b.type) : hlExchangeWeight(b.action)
  return [{ limit: 'weight', weight }]
}

/**
 * Weight known only from the answer: the per-20 (candles: per-60) items
 * extra of the list reads. [] when there is none.
 * @example hlAnswerCharges('/info', { type: 'userFills', user }, fills)
 */
export function hlAnswerCharges(
  path: '/info' | '/exchange',
  body: unknown,
  answer: unknown,
): RequestCharge[] {
  if (path !== '/info' || !isObj(body)) return []
  const weight = hlInfoAnswerWeight(body.type, answer)
  return weight > 0 ? [{ limit: 'weight', weight }] : []
}
