import {
  type Decimal,
  dec,
  decString,
  isMultipleOf,
  isValidPrice,
  type VenueOrder,
  type VenueOrderRequest,
  VenueRejectedError,
} from '@dn/core'
import { advanceSim } from './advanceSim.js'
import { fillOrder, reducibleSize } from './fillOrder.js'
import { freeMargin } from './liquidationPrice.js'
import { liveBook, takeFromBook } from './liveBook.js'
import { orderView, type SimOrder, setOrderState } from './simOrder.js'
import {
  accountOf,
  rollFault,
  type SimMarketState,
  type SimState,
  settingsOf,
} from './simState.js'

/**
 * Places one order, checked the way the venue checks it, in this order:
 * account, listed market, duplicate client order id, size step, price
 * grid, minimum notional and base (waived for reduce-only), reduce-only
 * room (the size is capped to the opposite position), post-only crossing,
 * margin for the part that grows the position. A refusal throws
 * VenueRejectedError and leaves no order behind. An accepted order takes
 * the book up to its price (IOC, GTC); an IOC remainder ends cancelled
 * (Aster: expired), a GTC or post-only remainder rests.
 * @param builderFeeRate share of each fill's notional charged on top of
 *   the venue's fee (a Hyperliquid builder code); absent: none
 */
export function placeSimOrder(
  state: SimState,
  owner: string,
  req: VenueOrderRequest,
  builderFeeRate?: Decimal,
): VenueOrder {
  advanceSim(state)
  const account = accountOf(state, owner)
  const reasons = state.style.reasons
  const reject = (reason: string): never => {
    state.rejected += 1
    throw new VenueRejectedError(reason)
  }
  const m = state.markets.get(req.market) ?? reject(reasons.unknownMarket)
  const rules = m.market
  if (state.orders.has(req.clientOrderId)) reject(reasons.duplicate)
  if (rollFault(state, 'reject')) reject(reasons.margin)
  let size = parse(req.size) ?? reject(reasons.step)
  const price = parse(req.price) ?? reject(reasons.tick)
  if (size.lte(0) || !isMultipleOf(size, rules.sizeStep)) reject(reasons.step)
  if (!isValidPrice(rules, price)) reject(reasons.tick)
  if (!req.reduceOnly && size.mul(price).lt(rules.minNotionalUsd))
    reject(reasons.minNotional(rules.minNotionalUsd))
  if (!req.reduceOnly && size.lt(rules.minBase))
    reject(reasons.minBase(rules.minBase))
  const long = req.side === 'long'
  if (req.reduceOnly) {
    const room = reducibleSize(account, rules.symbol, req.side)
    if (room.isZero()) reject(reasons.reduceOnly)
    if (room.lt(size)) size = room
  }
  const book = liveBook(state, m)
  const best = long ? book.asks[0] : book.bids[0]
  const crosses =
    best !== undefined && (long ? price.gte(best.price) : price.lte(best.price))
  if (req.timeInForce === 'post_only' && crosses) {
    const bid = book.bids[0]?.price ?? dec(0)
    const ask = book.asks[0]?.price ?? dec(0)
    reject(reasons.postOnly(decString(bid), decString(ask)))
  }
  if (!req.reduceOnly) {
    const held = account.positions.get(rules.symbol)?.size ?? dec(0)
    const grown = held
      .add(long ? size : size.neg())
      .abs()
      .sub(held.abs())
    const leverage = settingsOf(account, rules).leverage
    const need = grown.gt(0) ? grown.mul(price).div(leverage) : dec(0)
    if (freeMargin(state, account).lt(need)) reject(reasons.margin)
  }
  const order = accept(
    state,
    account.owner,
    req,
    size,
    price,
    m,
    builderFeeRate,
  )
  if (req.timeInForce !== 'post_only') take(state, m, order)
  const left = order.size.sub(order.filled)
  if (left.isZero()) {
    setOrderState(state.style, order, 'filled')
  } else if (req.timeInForce === 'ioc') {
    setOrderState(
      state.style,
      order,
      state.style.iocRemainder,
      'ioc',
      'no liquidity left at or better than the limit price',
    )
  } else {
    const partial = order.filled.gt(0)
    setOrderState(state.style, order, partial ? 'partially_filled' : 'open')
    state.resting.add(order)
  }
  return orderView(order)
}

function parse(value: string): Decimal | undefined {
  try {
    const d = dec(value)
    return d.isFinite() ? d : undefined
  } catch {
    return undefined
  }
}

function accept(
  state: SimState,
  owner: string,
  req: VenueOrderRequest,
  size: Decimal,
  price: Decimal,
  m: SimMarketState,
  builderFeeRate: Decimal | undefined,
): SimOrder {
  const tick = dec(m.market.tickSize)
  const order: SimOrder = {
    owner,
    market: req.market,
    side: req.side,
    price,
    timeInForce: req.timeInForce,
    reduceOnly: req.reduceOnly,
    clientOrderId: req.clientOrderId,
    // venue order ids are plain increasing integers on all three venues
    venueOrderId: String(state.nextOrderId++),
    priceDecimals: tick.decimalPlaces(),
    ...(builderFeeRate === undefined ? {} : { builderFeeRate }),
    size,
    filled: dec(0),
    filledNotional: dec(0),
    fills: [],
    state: 'open',
    venueStatus: state.style.status('open'),
    reason: null,
  }
  state.orders.set(req.clientOrderId, order)
  const seen = state.byClientOrderId.get(req.clientOrderId) ?? 0
  state.byClientOrderId.set(req.clientOrderId, seen + 1)
  state.placed += 1
  return order
}

// Walks the opposite side best first, taking each level's live size at its
// own price until the order is filled or the next level is past its price.
function take(state: SimState, m: SimMarketState, order: SimOrder): void {
  const long = order.side === 'long'
  const book = liveBook(state, m)
  for (const level of long ? book.asks : book.bids) {
    const left = order.size.sub(order.filled)
    if (left.isZero()) return
    if (long ? level.price.gt(order.price) : level.price.lt(order.price)) return
    const qty = level.size.lt(left) ? level.size : left
    takeFromBook(m, long ? 'asks' : 'bids', level.price, qty)
    fillOrder(state, order, qty, level.price, 'taker')
  }
}
