import {
  dec,
  decString,
  type TimeInForce,
  VenueAccountNotFoundError,
  type VenueOrder,
  VenueRejectedError,
} from '@dn/core'
import { checkAsterOrder } from '../../aster/precision/checkAsterOrder.js'
import { roundAsterPrice } from '../../aster/precision/roundAsterPrice.js'
import { venueStyle } from '../venueStyle.js'
import { param } from './asterFakeAuth.js'
import { AsterFakeError, invalidParam, mandatory } from './asterFakeError.js'
import { filtersOf } from './asterFakeMarket.js'
import type { AsterFakeOrder, AsterFakeState } from './asterFakeState.js'

type Pairs = readonly (readonly [string, string])[]

const CLIENT_ID = /^[.A-Z:/a-z0-9_-]{1,36}$/
const DECIMAL = /^\d+(\.\d+)?$/
const TIF: Record<string, TimeInForce> = {
  GTC: 'gtc',
  IOC: 'ioc',
  GTX: 'post_only',
}
/** a MARKET order is bounded by `marketTakeBound` of the mark */
const MARKET_TAKE_BOUND = '0.30'

const reasons = venueStyle('aster').reasons
/** The engine's reject wording → Aster's error code. */
function codeOf(reason: string): number {
  if (reason === reasons.margin) return -2019
  if (reason === reasons.reduceOnly) return -2022
  if (reason === reasons.tick) return -4014
  if (reason === reasons.step) return -4023
  if (reason === reasons.unknownMarket) return -1121
  // -5022 and -4116 are Binance's codes; Aster's doc does not list them
  if (reason === reasons.duplicate) return -4116
  if (reason.startsWith('Due to the order could not be executed as maker'))
    return -5022
  if (reason.startsWith("Order's notional")) return -4164
  if (reason.startsWith('Quantity less than')) return -4004
  return -2010
}

/** The order object Aster answers for place, query and cancel. */
function orderJson(o: AsterFakeOrder, v: VenueOrder, now: number) {
  const avg = v.averagePrice ?? '0'
  return {
    orderId: o.orderId,
    symbol: o.symbol,
    status: v.venueStatus,
    clientOrderId: o.clientOrderId,
    price: o.price,
    avgPrice: avg,
    origQty: v.size,
    executedQty: v.filledBase,
    cumQty: v.filledBase,
    cumQuote: decString(dec(v.filledBase).mul(avg)),
    timeInForce: o.timeInForce,
    type: o.type,
    origType: o.type,
    reduceOnly: o.reduceOnly,
    closePosition: false,
    side: o.side,
    positionSide: 'BOTH',
    stopPrice: '0',
    workingType: 'CONTRACT_PRICE',
    priceProtect: false,
    time: o.time,
    updateTime: now,
  }
}

function decimalParam(pairs: Pairs, name: string): string {
  const v = param(pairs, name)
  if (!v || !DECIMAL.test(v)) throw mandatory(name)
  return v
}

/**
 * `POST /fapi/v3/order`: checks parameters, position mode, builder fee and
 * the symbol filters with Aster's codes, then places the order on the
 * engine under its `newClientOrderId`. Answers the RESULT shape.
 */
export function placeOrder(state: AsterFakeState, user: string, pairs: Pairs) {
  const symbol = param(pairs, 'symbol') ?? ''
  const filters = filtersOf(state, symbol)
  const side = param(pairs, 'side')
  if (side !== 'BUY' && side !== 'SELL') {
    throw new AsterFakeError(-1117, 'Invalid side.')
  }
  const type = param(pairs, 'type')
  if (type !== 'LIMIT' && type !== 'MARKET') {
    throw new AsterFakeError(-1116, 'Invalid orderType.')
  }
  const positionSide = param(pairs, 'positionSide') ?? 'BOTH'
  if (state.hedge.has(user) === (positionSide === 'BOTH')) {
    throw new AsterFakeError(
      -4061,
      "Order's position side does not match user's setting.",
    )
  }
  if (positionSide !== 'BOTH') {
    // the engine nets positions: hedge-mode orders are not simulated
    throw new AsterFakeError(-1020, 'This operation is not supported.')
  }
  const ro = param(pairs, 'reduceOnly') ?? 'false'
  if (ro !== 'true' && ro !== 'false') throw invalidParam('reduceOnly')
  const reduceOnly = ro === 'true'
  const quantity = decimalParam(pairs, 'quantity')
  const mark = state.exchange.quote(symbol).mark
  let price: string
  let tif: string
  if (type === 'LIMIT') {
    price = decimalParam(pairs, 'price')
    tif = param(pairs, 'timeInForce') ?? ''
    if (!TIF[tif]) throw new AsterFakeError(-1115, 'Invalid timeInForce.')
  } else {
    if (param(pairs, 'price') !== undefined) {
      throw new AsterFakeError(
        -1106,
        "Parameter 'price' sent when not required.",
      )
    }
    const bound = dec(1)[side === 'BUY' ? 'add' : 'sub'](MARKET_TAKE_BOUND)
    price = roundAsterPrice(
      filters.price,
      decString(dec(mark).mul(bound)),
      side === 'BUY' ? 'down' : 'up',
    )
    tif = 'IOC'
  }
  const clientOrderId =
    param(pairs, 'newClientOrderId') ?? `autoclientid-${state.nextOrderId}`
  if (!CLIENT_ID.test(clientOrderId)) {
    throw new AsterFakeError(-4015, 'Client order id is not valid.')
  }
  const builder = param(pairs, 'builder') ?? null
  const feeRate = param(pairs, 'feeRate') ?? null
  if (builder !== null || feeRate !== null) {
    const cap =
      builder && state.builders.get(`${user}|${builder.toLowerCase()}`)
    if (!cap) throw invalidParam('builder')
    if (!feeRate || !DECIMAL.test(feeRate) || dec(feeRate).gt(cap)) {
      throw invalidParam('feeRate')
    }
  }
  const breach = checkAsterOrder(filters, {
    side,
    type,
    price: type === 'LIMIT' ? price : null,
    quantity,
    markPrice: mark,
    reduceOnly,
  })
  if (breach) throw new AsterFakeError(breach.code, breach.msg)
  let view: VenueOrder
  try {
    view = state.exchange.place(user, {
      market: symbol,
      side: side === 'BUY' ? 'long' : 'short',
      size: quantity,
      price,
      timeInForce: TIF[tif] as TimeInForce,
      reduceOnly,
      clientOrderId,
    })
  } catch (e) {
    if (e instanceof VenueRejectedError) {
      throw new AsterFakeError(codeOf(e.reason), e.reason)
    }
    if (e instanceof VenueAccountNotFoundError) {
      throw new AsterFakeError(-2019, reasons.margin)
    }
    throw e
  }
  const order: AsterFakeOrder = {
    user,
    symbol,
    orderId: state.nextOrderId++,
    clientOrderId,
    side,
    type,
    timeInForce: tif,
    price: type === 'LIMIT' ? price : '0',
    reduceOnly,
    time: state.now(),
    builder,
    feeRate,
  }
  state.orders.set(`${user}|${clientOrderId}`, order)
  state.byOrderId.set(order.orderId, order)
  return orderJson(order, view, state.now())
}

const noSuchOrder = () => new AsterFakeError(-2013, 'Order does not exist.')

function findOrder(state: AsterFakeState, user: string, pairs: Pairs) {
  const symbol = param(pairs, 'symbol')
  if (!symbol) throw mandatory('symbol')
  filtersOf(state, symbol)
  const cloid = param(pairs, 'origClientOrderId')
  const id = param(pairs, 'orderId')
  if (cloid === undefined && id === undefined) {
    throw new AsterFakeError(
      -1102,
      "Param 'orderId' or 'origClientOrderId' must be sent, but both were empty/null!",
    )
  }
  const o =
    cloid !== undefined
      ? state.orders.get(`${user}|${cloid}`)
      : state.byOrderId.get(Number(id))
  if (!o || o.user !== user || o.symbol !== symbol) throw noSuchOrder()
  const view = state.exchange.order(user, o.clientOrderId, symbol)
  if (!view) throw noSuchOrder()
  return { o, view }
}

/** `GET /fapi/v3/order` by `origClientOrderId` or `orderId`. */
export function queryOrder(state: AsterFakeState, user: string, pairs: Pairs) {
  const { o, view } = findOrder(state, user, pairs)
  return orderJson(o, view, state.now())
}

/** `DELETE /fapi/v3/order`; a final order answers -2011. */
export function cancelOrder(state: AsterFakeState, user: string, pairs: Pairs) {
  const { o, view } = findOrder(state, user, pairs)
  if (view.state !== 'open' && view.state !== 'partially_filled') {
    throw new AsterFakeError(-2011, 'Unknown order sent.')
  }
  const after = state.exchange.cancel(user, o.clientOrderId, o.symbol)
  return orderJson(o, after, state.now())
}
