import { requireLighterAuthToken } from './lighterFakeAuthToken.js'
import { FAKE_CODES, LighterFakeError } from './lighterFakeError.js'
import {
  int,
  limit,
  marketFilter,
  oneOf,
  optInt,
  type Query,
} from './lighterFakeQuery.js'
import { type LighterFakeState, marketById } from './lighterFakeState.js'
import { lighterFakeTradeJson, lighterFakeTrades } from './lighterFakeTrades.js'

/**
 * `recentTrades` and `trades`, newest first (the spec's only `sort_dir`
 * is `desc`; trade ids grow with time, so every `sort_by` gives the same
 * order). Pagination (`cursor`, `from`), `aggregate` and the
 * `skip_*_order_id` filters are not modelled: one page of `limit`.
 *
 * @module
 */

const OK = { code: 200 }

export function recentTrades(state: LighterFakeState, q: Query) {
  const id = int(q, 'market_id')
  const n = limit(q, 100)
  if (!marketById(state, id)) {
    throw new LighterFakeError(FAKE_CODES.invalidMarket, 'invalid market index')
  }
  const rows = lighterFakeTrades(state, id).reverse().slice(0, n)
  return { ...OK, trades: rows.map(lighterFakeTradeJson) }
}

/**
 * `trades`: by market, account (`account_index`, then its auth token is
 * required [unverified: the spec marks auth optional; an account's
 * trades are treated as private, like its orders]), order, side of the
 * account (`ask_filter` 1 asks, 0 bids), `role` and `type`.
 */
export function trades(state: LighterFakeState, q: Query, token: string) {
  oneOf(q, 'sort_by', ['block_height', 'timestamp', 'trade_id'] as const)
  oneOf(q, 'sort_dir', ['desc'] as const, 'desc')
  const n = limit(q, 100)
  const account = optInt(q, 'account_index', -1)
  if (account !== -1) requireLighterAuthToken(state, account, token)
  const order = optInt(q, 'order_index', -1)
  const askFilter = optInt(q, 'ask_filter', -1)
  const role = oneOf(q, 'role', ['all', 'maker', 'taker'] as const, 'all')
  const type = oneOf(
    q,
    'type',
    ['all', 'trade', 'liquidation', 'deleverage', 'market-settlement'] as const,
    'all',
  )
  oneOf(q, 'market_type', ['all', 'spot', 'perp'] as const, 'all')
  if (type !== 'all' && type !== 'trade') return { ...OK, trades: [] }
  const rows = lighterFakeTrades(state, marketFilter(q)).filter(
    ({ fill, order: o }) =>
      (account === -1 || o.accountIndex === account) &&
      (order === -1 || o.orderIndex === order) &&
      (askFilter === -1 || o.isAsk === (askFilter === 1)) &&
      (role === 'all' || fill.maker === (role === 'maker')),
  )
  return {
    ...OK,
    trades: rows.reverse().slice(0, n).map(lighterFakeTradeJson),
  }
}
