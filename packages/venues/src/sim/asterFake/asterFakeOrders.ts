import { dec, type VenueOrder } from '@dn/core'
import { checkAsterOrder } from '../../aster/precision/checkAsterOrder.js'
import { param } from './asterFakeAuth.js'
import { asOneOrder, engineIdOf } from './asterFakeEngineLegs.js'
import {
  ENGINE_TIF,
  marketPrice,
  placeOnEngine,
} from './asterFakeEnginePlace.js'
import { AsterFakeError, invalidParam, mandatory } from './asterFakeError.js'
import { filtersOf } from './asterFakeMarket.js'
import { orderJson, viewOf } from './asterFakeOrderJson.js'
import type {
  AsterFakeOrder,
  AsterFakeOrderType,
  AsterFakeState,
} from './asterFakeState.js'
import { CONDITIONAL, reached } from './asterFakeTriggers.js'

type Pairs = readonly (readonly [string, string])[]

const CLIENT_ID = /^[.A-Z:/a-z0-9_-]{1,36}$/
const DECIMAL = /^\d+(\.\d+)?$/
const TYPES = new Set(['LIMIT', 'MARKET', ...Object.keys(CONDITIONAL)])

/** A required positive decimal parameter, else -1102 naming it. */
export function decimalParam(pairs: Pairs, name: string): string {
  const v = param(pairs, name)
  if (!v || !DECIMAL.test(v)) throw mandatory(name)
  return v
}

const notRequired = (name: string) =>
  new AsterFakeError(-1106, `Parameter '${name}' sent when not required.`)

/** Builder and fee rate of an order: both or neither, within the cap. */
function builderFields(state: AsterFakeState, user: string, pairs: Pairs) {
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
  return { builder, feeRate }
}

/**
 * `POST /fapi/v3/order`: checks parameters, position mode, builder fee and
 * the symbol filters with Aster's codes. LIMIT and MARKET go to the
 * engine under their `newClientOrderId`; STOP, TAKE_PROFIT (limit) and
 * STOP_MARKET, TAKE_PROFIT_MARKET wait in the fake until the mark reaches
 * `stopPrice` (-2021 when it already has). Answers the order as accepted
 * (status NEW, nothing filled) for `newOrderRespType` ACK, the default,
 * and as it stands after matching for RESULT.
 * Not accepted: TRAILING_STOP_MARKET (-1116), `closePosition=true` and
 * `priceProtect=TRUE` (-1020), FOK and HIDDEN (-1115).
 */
export function placeOrder(state: AsterFakeState, user: string, pairs: Pairs) {
  const symbol = param(pairs, 'symbol') ?? ''
  const filters = filtersOf(state, symbol)
  const side = param(pairs, 'side')
  if (side !== 'BUY' && side !== 'SELL') {
    throw new AsterFakeError(-1117, 'Invalid side.')
  }
  const type = param(pairs, 'type') ?? ''
  if (!TYPES.has(type)) throw new AsterFakeError(-1116, 'Invalid orderType.')
  const conditional = CONDITIONAL[type]
  const positionSide = param(pairs, 'positionSide') ?? 'BOTH'
  if (state.hedge.has(user) === (positionSide === 'BOTH')) {
    throw new AsterFakeError(
      -4061,
      "Order's position side does not match user's setting.",
    )
  }
  const unsupported = new AsterFakeError(
    -1020,
    'This operation is not supported.',
  )
  // the engine nets positions: hedge-mode orders are not simulated
  if (positionSide !== 'BOTH') throw unsupported
  if (param(pairs, 'closePosition') === 'true') throw unsupported
  if ((param(pairs, 'priceProtect') ?? '').toUpperCase() === 'TRUE') {
    throw unsupported
  }
  const ro = param(pairs, 'reduceOnly') ?? 'false'
  if (ro !== 'true' && ro !== 'false') throw invalidParam('reduceOnly')
  const reduceOnly = ro === 'true'
  const quantity = decimalParam(pairs, 'quantity')
  const mark = state.exchange.quote(symbol).mark
  const limitLike = type === 'LIMIT' || conditional?.market === false
  let price: string
  let tif: string
  if (limitLike) {
    price = decimalParam(pairs, 'price')
    tif = param(pairs, 'timeInForce') ?? (type === 'LIMIT' ? '' : 'GTC')
    if (!ENGINE_TIF[tif]) {
      throw new AsterFakeError(-1115, 'Invalid timeInForce.')
    }
  } else {
    if (param(pairs, 'price') !== undefined) throw notRequired('price')
    price = marketPrice(state, filters, symbol, side)
    tif = 'IOC'
  }
  let stopPrice: string | undefined
  let workingType: string | undefined
  if (conditional) {
    stopPrice = decimalParam(pairs, 'stopPrice')
    if (dec(stopPrice).lte(0)) {
      throw new AsterFakeError(-4006, 'Stop price less than zero.')
    }
    workingType = param(pairs, 'workingType') ?? 'CONTRACT_PRICE'
    if (workingType !== 'CONTRACT_PRICE' && workingType !== 'MARK_PRICE') {
      throw new AsterFakeError(
        -4031,
        `Invalid parameter working type: ${workingType}`,
      )
    }
    if (reached(type, side, mark, stopPrice)) {
      throw new AsterFakeError(-2021, 'Order would immediately trigger.')
    }
  } else if (param(pairs, 'stopPrice') !== undefined) {
    throw notRequired('stopPrice')
  }
  const clientOrderId =
    param(pairs, 'newClientOrderId') ?? `autoclientid-${state.nextOrderId}`
  if (!CLIENT_ID.test(clientOrderId)) {
    throw new AsterFakeError(-4015, 'Client order id is not valid.')
  }
  const { builder, feeRate } = builderFields(state, user, pairs)
  const respType = param(pairs, 'newOrderRespType') ?? 'ACK'
  if (respType !== 'ACK' && respType !== 'RESULT') {
    throw invalidParam('newOrderRespType')
  }
  const breach = checkAsterOrder(filters, {
    side,
    type: limitLike ? 'LIMIT' : 'MARKET',
    price: limitLike ? price : null,
    quantity,
    markPrice: mark,
    reduceOnly,
  })
  if (breach) throw new AsterFakeError(breach.code, breach.msg)
  let view: VenueOrder | null = null
  if (conditional) {
    const prior = state.orders.get(`${user}|${clientOrderId}`)
    const live = prior && viewOf(state, prior)
    if (live && (live.state === 'open' || live.state === 'partially_filled')) {
      throw new AsterFakeError(-4116, 'duplicate clientOrderId')
    }
  } else {
    view = placeOnEngine(state, user, {
      symbol,
      side,
      quantity,
      price,
      tif,
      reduceOnly,
      clientOrderId,
    })
  }
  const order: AsterFakeOrder = {
    user,
    symbol,
    orderId: state.nextOrderId++,
    clientOrderId,
    side,
    type: type as AsterFakeOrderType,
    timeInForce: tif,
    price: limitLike ? price : '0',
    reduceOnly,
    time: state.now(),
    builder,
    feeRate,
    stopPrice,
    workingType,
    quantity,
  }
  state.orders.set(`${user}|${clientOrderId}`, order)
  state.byOrderId.set(order.orderId, order)
  if (conditional) {
    state.triggers.set(order.orderId, { status: 'NEW', updateTime: order.time })
  }
  const result = view ?? (viewOf(state, order) as VenueOrder)
  // ACK (the default) answers the accepted order, not its outcome: the
  // doc returns a MARKET's fill or an IOC's end "directly" only for RESULT
  const answer: VenueOrder =
    respType === 'RESULT'
      ? result
      : {
          ...result,
          state: 'open',
          venueStatus: 'NEW',
          filledBase: '0',
          averagePrice: null,
        }
  return orderJson(order, answer, state.now())
}

export const noSuchOrder = () =>
  new AsterFakeError(-2013, 'Order does not exist.')

/**
 * The user's order named by `orderId` or `origClientOrderId` on
 * `symbol`, with its current view.
 * @throws AsterFakeError -1102, -1121 or -2013
 */
export function findOrder(state: AsterFakeState, user: string, pairs: Pairs) {
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
  const view = viewOf(state, o)
  if (!view) throw noSuchOrder()
  return { o, view }
}

/** `GET /fapi/v3/order` by `origClientOrderId` or `orderId`. */
export function queryOrder(state: AsterFakeState, user: string, pairs: Pairs) {
  const { o, view } = findOrder(state, user, pairs)
  return orderJson(o, view, state.now())
}

/**
 * Cancels one order, waiting conditional or resting on the engine.
 * @throws AsterFakeError -2011 when it is final
 */
export function cancelFound(
  state: AsterFakeState,
  o: AsterFakeOrder,
  view: VenueOrder,
) {
  if (view.state !== 'open' && view.state !== 'partially_filled') {
    throw new AsterFakeError(-2011, 'Unknown order sent.')
  }
  const t = state.triggers.get(o.orderId)
  if (t && t.status === 'NEW') {
    t.status = 'CANCELED'
    t.updateTime = state.now()
    return orderJson(o, viewOf(state, o) as VenueOrder, state.now())
  }
  const leg = state.exchange.cancel(o.user, engineIdOf(o), o.symbol)
  return orderJson(o, asOneOrder(o, leg), state.now())
}

/** `DELETE /fapi/v3/order`; a final order answers -2011. */
export function cancelOrder(state: AsterFakeState, user: string, pairs: Pairs) {
  const { o, view } = findOrder(state, user, pairs)
  return cancelFound(state, o, view)
}
