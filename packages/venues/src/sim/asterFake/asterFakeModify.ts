import { dec, decString, type VenueOrder } from '@dn/core'
import { checkAsterOrder } from '../../aster/precision/checkAsterOrder.js'
import { param } from './asterFakeAuth.js'
import { asOneOrder, engineIdOf, nextEngineId } from './asterFakeEngineLegs.js'
import { placeOnEngine } from './asterFakeEnginePlace.js'
import { AsterFakeError } from './asterFakeError.js'
import { filtersOf } from './asterFakeMarket.js'
import { orderJson, viewOf } from './asterFakeOrderJson.js'
import { decimalParam, findOrder, noSuchOrder } from './asterFakeOrders.js'
import type { AsterFakeOrder, AsterFakeState } from './asterFakeState.js'

/**
 * Modify Order (`PUT /fapi/v3/order`, TRADE, weight 1), as the futures
 * v3 doc (asterdex/api-docs@265e024, "Modify Order (TRADE)", added
 * 2026-04-16) gives it: `symbol`, `orderId` or `origClientOrderId`
 * (`orderId` wins when both are sent), and both `quantity` and `price`;
 * LIMIT orders only; a new quantity or price outside PRICE_FILTER /
 * PERCENT_PRICE / LOT_SIZE is rejected and the order stays as it was; at
 * most 10000 modifications per order. The doc lists no error codes for
 * it; those below are Binance USDⓈ-M's for its Modify Order, of which
 * Aster's is a copy [unverified on Aster]: -5025 "Only limit order is
 * supported.", -5026 "Exceed maximum modify order limit.", -5027 "No
 * need to modify the order.", -5022 for a post-only (GTX) order whose new
 * price would take. Binance also documents, and Aster's doc leaves out,
 * that the order is then cancelled, as it is when a partially filled
 * order's new quantity is not above what has filled; the fake does so
 * [unverified on Aster]: the first answers -5022, the second the
 * cancelled order. A filled, cancelled or expired order is -2013
 * [unverified: the matching engine no longer knows it].
 * Binance sources: its USDⓈ-M "Modify Order (TRADE)" page (mirrored in
 * rosssaunders/coincise docs/binance/usdm/endpoints/private/
 * put_fapi_v1_order.md), the messages as ccxt 4.5.84's binance error map
 * words them. Not modelled: Binance's `side` and `priceMatch` parameters
 * (Aster lists neither; `side` is ignored), BBO-pegged orders (the fake
 * takes no `pegPriceType`).
 *
 * @module
 */

type Pairs = readonly (readonly [string, string])[]

/** "Maximum 10000 modifications per order." */
const MAX_MODIFIES = 10_000

/**
 * `PUT /fapi/v3/order`: the user's resting LIMIT order at a new price and
 * quantity, keeping its orderId, clientOrderId, side, time in force and
 * reduce-only flag. The engine cannot amend, so its order is cancelled
 * and a new leg placed for what is left to fill (`asterFakeEngineLegs.ts`);
 * the order loses its place in the queue, as Binance says a modified
 * order does. A refusal only the engine can see after the cancel (margin,
 * reduce-only, a remainder under the minimum notional) puts the old leg
 * back as a new one, so the order stays, behind any orders that came in
 * meanwhile.
 * @returns the order as modified, in the doc's answer shape
 * @throws AsterFakeError as listed in the module comment
 */
export function modifyOrder(state: AsterFakeState, user: string, pairs: Pairs) {
  // "If both are sent, orderId takes precedence."
  const byId = param(pairs, 'orderId') !== undefined
  const { o, view } = findOrder(
    state,
    user,
    byId ? pairs.filter(([k]) => k !== 'origClientOrderId') : pairs,
  )
  const quantity = decimalParam(pairs, 'quantity')
  const price = decimalParam(pairs, 'price')
  if (view.state !== 'open' && view.state !== 'partially_filled') {
    throw noSuchOrder()
  }
  if (o.type !== 'LIMIT') {
    throw new AsterFakeError(-5025, 'Only limit order is supported.')
  }
  if ((o.modifies ?? 0) >= MAX_MODIFIES) {
    throw new AsterFakeError(-5026, 'Exceed maximum modify order limit.')
  }
  const breach = checkAsterOrder(filtersOf(state, o.symbol), {
    side: o.side,
    type: 'LIMIT',
    price,
    quantity,
    markPrice: state.exchange.quote(o.symbol).mark,
    reduceOnly: o.reduceOnly,
  })
  if (breach) throw new AsterFakeError(breach.code, breach.msg)
  if (dec(price).eq(o.price) && dec(quantity).eq(view.size)) {
    throw new AsterFakeError(-5027, 'No need to modify the order.')
  }
  // the leg as it ends, fills up to the cancel included
  const old = state.exchange.cancel(o.user, engineIdOf(o), o.symbol)
  if (old.state !== 'cancelled') throw noSuchOrder()
  const before = filledBefore(o, old)
  const left = dec(quantity).sub(before.base)
  // cancelled by the amendment: the order as it now stands
  if (left.lte(0)) return answer(state, o)
  const next: AsterFakeOrder = {
    ...o,
    price,
    engineId: nextEngineId(state, o),
    priorFilled: before,
    modifies: (o.modifies ?? 0) + 1,
  }
  try {
    placeLeg(state, next, decString(left))
  } catch (e) {
    // a post-only order that would take stays cancelled, as on Binance
    if (e instanceof AsterFakeError && e.code !== -5022) {
      putBack(state, { ...o, priorFilled: before }, old)
    }
    throw e
  }
  record(state, next)
  return answer(state, next)
}

/** What the order's legs filled up to and with `leg`, its current one. */
function filledBefore(o: AsterFakeOrder, leg: VenueOrder) {
  const whole = asOneOrder(o, leg)
  return {
    base: whole.filledBase,
    quote: decString(
      dec(whole.filledBase)
        .mul(whole.averagePrice ?? 0)
        .toDecimalPlaces(12),
    ),
  }
}

function placeLeg(state: AsterFakeState, o: AsterFakeOrder, size: string) {
  placeOnEngine(state, o.user, {
    symbol: o.symbol,
    side: o.side,
    quantity: size,
    price: o.price,
    tif: o.timeInForce,
    reduceOnly: o.reduceOnly,
    clientOrderId: engineIdOf(o),
  })
}

/**
 * After a refusal the engine gave once the old leg was cancelled: the old
 * price and remaining quantity as a new leg (`o` carries every fill so
 * far); when the engine refuses that too the order stays cancelled.
 */
function putBack(state: AsterFakeState, o: AsterFakeOrder, old: VenueOrder) {
  const back: AsterFakeOrder = { ...o, engineId: nextEngineId(state, o) }
  try {
    placeLeg(state, back, decString(dec(old.size).sub(old.filledBase)))
    record(state, back)
  } catch (e) {
    if (!(e instanceof AsterFakeError)) throw e
  }
}

/** Puts the order's new record in both indexes. */
function record(state: AsterFakeState, o: AsterFakeOrder) {
  state.orders.set(`${o.user}|${o.clientOrderId}`, o)
  state.byOrderId.set(o.orderId, o)
}

/** The doc's Modify Order answer: the order object without `time`. */
function answer(state: AsterFakeState, o: AsterFakeOrder) {
  const { time: _, ...json } = orderJson(
    o,
    viewOf(state, o) as VenueOrder,
    state.now(),
  )
  return json
}
