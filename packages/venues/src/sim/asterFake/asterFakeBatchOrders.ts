import { param } from './asterFakeAuth.js'
import { AsterFakeError, invalidParam, mandatory } from './asterFakeError.js'
import { cancelOrder, placeOrder } from './asterFakeOrders.js'
import type { AsterFakeState } from './asterFakeState.js'

type Pairs = readonly (readonly [string, string])[]

/** At most this many orders in a `batchOrders` list (the doc's "Max 5"). */
const MAX_PLACE = 5
/** At most this many ids in an `orderIdList` / `origClientOrderIdList`. */
const MAX_CANCEL = 10

/** A JSON list parameter. @throws -1102 when absent, -1130 when not a list */
function jsonList(pairs: Pairs, name: string): unknown[] | undefined {
  const raw = param(pairs, name)
  if (raw === undefined) return undefined
  let list: unknown
  try {
    list = JSON.parse(raw)
  } catch {
    throw invalidParam(name)
  }
  if (!Array.isArray(list)) throw invalidParam(name)
  return list
}

/** Each entry's answer: its result, or the error it met as `{code, msg}`. */
function each<T>(items: readonly T[], run: (item: T) => unknown): unknown[] {
  return items.map((item) => {
    try {
      return run(item)
    } catch (e) {
      if (e instanceof AsterFakeError) return { code: e.code, msg: e.message }
      throw e
    }
  })
}

const asString = (v: unknown) =>
  typeof v === 'string'
    ? v
    : typeof v === 'object'
      ? JSON.stringify(v)
      : String(v)

/**
 * `POST /fapi/v3/batchOrders` (TRADE, weight 5, each order counted):
 * `batchOrders` a JSON list of New Order parameter objects (max 5); the
 * answer lists, in the same order, each order as `POST order` answers it
 * or its `{code, msg}` (futures v3 doc "Place Multiple Orders"). The fake
 * places them one after the other.
 */
export function placeBatch(state: AsterFakeState, user: string, pairs: Pairs) {
  const list = jsonList(pairs, 'batchOrders')
  if (!list) throw mandatory('batchOrders')
  if (list.length === 0 || list.length > MAX_PLACE) {
    throw invalidParam('batchOrders')
  }
  return each(list, (o) => {
    if (typeof o !== 'object' || o === null || Array.isArray(o)) {
      throw invalidParam('batchOrders')
    }
    const orderPairs = Object.entries(o).map(
      ([k, v]) => [k, asString(v)] as const,
    )
    return placeOrder(state, user, orderPairs)
  })
}

/**
 * `DELETE /fapi/v3/batchOrders` (TRADE, weight 1): cancels the orders of
 * `orderIdList` or `origClientOrderIdList` (JSON lists, max 10) on
 * `symbol`; each entry answers the cancelled order or its `{code, msg}`
 * (futures v3 doc "Cancel Multiple Orders").
 */
export function cancelBatch(state: AsterFakeState, user: string, pairs: Pairs) {
  const symbol = param(pairs, 'symbol')
  if (!symbol) throw mandatory('symbol')
  const ids = jsonList(pairs, 'orderIdList')
  const cloids = jsonList(pairs, 'origClientOrderIdList')
  const list = ids ?? cloids
  if (!list) {
    throw new AsterFakeError(
      -1102,
      "Param 'orderIdList' or 'origClientOrderIdList' must be sent, but both were empty/null!",
    )
  }
  if (list.length === 0 || list.length > MAX_CANCEL) {
    throw invalidParam(ids ? 'orderIdList' : 'origClientOrderIdList')
  }
  const key = ids ? 'orderId' : 'origClientOrderId'
  return each(list, (id) =>
    cancelOrder(state, user, [
      ['symbol', symbol],
      [key, asString(id)],
    ]),
  )
}
