import { parseLighterAuthToken } from '../../lighter/signer/authToken.js'
import { requireLighterAuthToken } from './lighterFakeAuthToken.js'
import { lighterFakeOrderJson } from './lighterFakeOrderJson.js'
import { isLive } from './lighterFakeOrders.js'
import {
  int,
  invalidParam,
  limit,
  marketFilter,
  oneOf,
  optInt,
  type Query,
} from './lighterFakeQuery.js'
import type { LighterFakeOrder, LighterFakeState } from './lighterFakeState.js'

/**
 * The authenticated order reads: `accountOrders` (by client order
 * indexes), `accountActiveOrders`, `accountInactiveOrders`. Each needs a
 * valid auth token of the account. No pagination (`cursor`).
 *
 * @module
 */

const OK = { code: 200 }

function ordersOf(
  state: LighterFakeState,
  account: number,
  market: number | null,
): LighterFakeOrder[] {
  return [...state.ordersByIndex.values()].filter(
    (o) =>
      o.accountIndex === account &&
      (market === null || o.market.marketId === market),
  )
}

/** The account a read names, or its token's when it names none. */
function accountOf(q: Query, token: string): number {
  if (q.get('account_index') !== null) return int(q, 'account_index')
  return parseLighterAuthToken(token)?.accountIndex ?? -1
}

/**
 * `accountOrders`: the orders with the given client order indexes (a
 * comma-separated list, required); `account_index` defaults to the
 * token's account. The spec has no market filter here: a `market_id`
 * is ignored.
 */
export function accountOrders(
  state: LighterFakeState,
  q: Query,
  token: string,
) {
  const account = accountOf(q, token)
  requireLighterAuthToken(state, account, token)
  const raw = q.get('client_order_indexes')
  if (!raw) throw invalidParam('client_order_indexes')
  const wanted = new Set(
    raw.split(',').map((v) => {
      if (!/^\d+$/.test(v.trim())) throw invalidParam('client_order_indexes')
      return Number(v)
    }),
  )
  return {
    ...OK,
    orders: ordersOf(state, account, null)
      .filter((o) => wanted.has(o.clientOrderIndex))
      .map((o) => lighterFakeOrderJson(state, o)),
  }
}

/** `accountActiveOrders`: the account's resting orders. */
export function accountActiveOrders(
  state: LighterFakeState,
  q: Query,
  token: string,
) {
  const account = int(q, 'account_index')
  requireLighterAuthToken(state, account, token)
  if (
    oneOf(q, 'market_type', ['all', 'spot', 'perp'] as const, 'all') === 'spot'
  ) {
    return { ...OK, orders: [] }
  }
  return {
    ...OK,
    orders: ordersOf(state, account, marketFilter(q))
      .filter((o) => isLive(state, o))
      .map((o) => lighterFakeOrderJson(state, o)),
  }
}

/**
 * `between_timestamps` as `from-to` (Unix s) [unverified: the spec
 * gives only a string]; null when absent.
 */
function between(q: Query): [number, number] | null {
  const v = q.get('between_timestamps')
  if (v === null || v === '') return null
  const m = /^(\d+)[-,](\d+)$/.exec(v)
  if (!m) throw invalidParam('between_timestamps')
  return [Number(m[1]), Number(m[2])]
}

/**
 * `accountInactiveOrders`: the account's final orders (filled, canceled,
 * refused), newest first, at most `limit` (1..100), by market, side
 * (`ask_filter` 1 asks, 0 bids) and creation time.
 */
export function accountInactiveOrders(
  state: LighterFakeState,
  q: Query,
  token: string,
) {
  const account = int(q, 'account_index')
  requireLighterAuthToken(state, account, token)
  const n = limit(q, 100)
  const askFilter = optInt(q, 'ask_filter', -1)
  const window = between(q)
  if (
    oneOf(q, 'market_type', ['all', 'spot', 'perp'] as const, 'all') === 'spot'
  ) {
    return { ...OK, orders: [] }
  }
  const rows = ordersOf(state, account, marketFilter(q))
    .filter(
      (o) =>
        !isLive(state, o) &&
        (askFilter === -1 || o.isAsk === (askFilter === 1)) &&
        (window === null ||
          (o.timestamp / 1000 >= window[0] && o.timestamp / 1000 <= window[1])),
    )
    .sort((a, b) => b.orderIndex - a.orderIndex)
    .slice(0, n)
  return { ...OK, orders: rows.map((o) => lighterFakeOrderJson(state, o)) }
}
