import type { VenueOrder } from '@dn/core'
import { param } from './asterFakeAuth.js'
import { AsterFakeError, invalidParam, mandatory } from './asterFakeError.js'
import { filtersOf } from './asterFakeMarket.js'
import { orderJson, viewOf } from './asterFakeOrderJson.js'
import { cancelFound, findOrder } from './asterFakeOrders.js'
import type { AsterFakeOrder, AsterFakeState } from './asterFakeState.js'

type Pairs = readonly (readonly [string, string])[]

const isOpen = (v: VenueOrder | null): v is VenueOrder =>
  v !== null && (v.state === 'open' || v.state === 'partially_filled')

/** The user's orders (on `symbol` when given) with their views, oldest first. */
function ordersOf(state: AsterFakeState, user: string, symbol?: string) {
  const out: { o: AsterFakeOrder; v: VenueOrder | null }[] = []
  for (const o of state.byOrderId.values()) {
    if (o.user !== user || (symbol !== undefined && o.symbol !== symbol))
      continue
    // a reused client order id points at its newest order only
    if (state.orders.get(`${user}|${o.clientOrderId}`) !== o) continue
    out.push({ o, v: viewOf(state, o) })
  }
  return out
}

function optionalSymbol(state: AsterFakeState, pairs: Pairs) {
  const symbol = param(pairs, 'symbol')
  if (symbol !== undefined) filtersOf(state, symbol)
  return symbol
}

function requiredSymbol(state: AsterFakeState, pairs: Pairs) {
  const symbol = param(pairs, 'symbol')
  if (!symbol) throw mandatory('symbol')
  filtersOf(state, symbol)
  return symbol
}

/**
 * `GET /fapi/v3/openOrders` (weight 1 with a symbol, 40 without): the
 * user's resting orders and waiting conditional orders.
 */
export function openOrders(state: AsterFakeState, user: string, pairs: Pairs) {
  const symbol = optionalSymbol(state, pairs)
  const now = state.now()
  return ordersOf(state, user, symbol)
    .filter(({ v }) => isOpen(v))
    .map(({ o, v }) => orderJson(o, v as VenueOrder, now))
}

/**
 * `GET /fapi/v3/openOrder`: one open order; a filled or cancelled one is
 * -2013 "Order does not exist." as the doc says.
 */
export function openOrder(state: AsterFakeState, user: string, pairs: Pairs) {
  const { o, view } = findOrder(state, user, pairs)
  if (!isOpen(view)) {
    throw new AsterFakeError(-2013, 'Order does not exist.')
  }
  return orderJson(o, view, state.now())
}

/**
 * `DELETE /fapi/v3/allOpenOrders` (weight 1): cancels every open order of
 * the user on `symbol`, answering the doc's message (its `code` a string).
 */
export function cancelAllOpenOrders(
  state: AsterFakeState,
  user: string,
  pairs: Pairs,
) {
  const symbol = requiredSymbol(state, pairs)
  for (const { o, v } of ordersOf(state, user, symbol)) {
    if (isOpen(v)) cancelFound(state, o, v)
  }
  return {
    code: '200',
    msg: 'The operation of cancel all open order is done.',
  }
}

const MAX_WINDOW_MS = 7 * 86_400_000

/**
 * `GET /fapi/v3/allOrders` (weight 5): the user's orders on `symbol` —
 * from `orderId` on when given, else in `startTime`..`endTime` (the last
 * 7 days by default, at most 7 days) — oldest first, at most `limit`
 * (500, max 1000) of the most recent.
 */
export function allOrders(state: AsterFakeState, user: string, pairs: Pairs) {
  const symbol = requiredSymbol(state, pairs)
  const limit = Number(param(pairs, 'limit') ?? 500)
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > 1000) {
    throw invalidParam('limit')
  }
  const now = state.now()
  const fromId = param(pairs, 'orderId')
  const end = Number(param(pairs, 'endTime') ?? now)
  const start = Number(param(pairs, 'startTime') ?? end - MAX_WINDOW_MS)
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end)) {
    throw invalidParam('startTime')
  }
  if (end - start > MAX_WINDOW_MS) throw invalidParam('endTime')
  const rows = ordersOf(state, user, symbol)
    .filter(({ o }) =>
      fromId !== undefined
        ? o.orderId >= Number(fromId)
        : o.time >= start && o.time <= end,
    )
    .filter((r): r is { o: AsterFakeOrder; v: VenueOrder } => r.v !== null)
    .map(({ o, v }) => orderJson(o, v, now))
  return fromId !== undefined ? rows.slice(0, limit) : rows.slice(-limit)
}
