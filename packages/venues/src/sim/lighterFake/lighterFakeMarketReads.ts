import { restRateFromHourly } from '../../lighter/stream/lighterFundingUnits.js'
import { lighterFakeDailyStats } from './lighterFakeDailyStats.js'
import { FAKE_CODES, LighterFakeError } from './lighterFakeError.js'
import {
  lighterFakeOrderBook,
  lighterFakeOrderBookDetail,
} from './lighterFakeMarketJson.js'
import {
  int,
  limit,
  marketFilter,
  oneOf,
  type Query,
} from './lighterFakeQuery.js'
import {
  fixed,
  type LighterFakeMarket,
  type LighterFakeState,
  marketById,
} from './lighterFakeState.js'

/**
 * The public market reads: `orderBooks`, `orderBookDetails`,
 * `orderBookOrders`, `exchangeStats`, `funding-rates`. Every market is
 * a perp: a `spot` filter lists none.
 *
 * @module
 */

const OK = { code: 200 }

/** The markets a `market_id` / `filter` query names. */
function marketsOf(state: LighterFakeState, q: Query): LighterFakeMarket[] {
  const wanted = marketFilter(q)
  const filter = oneOf(q, 'filter', ['all', 'spot', 'perp'] as const, 'all')
  if (filter === 'spot') return []
  return state.markets.filter((m) => wanted === null || m.marketId === wanted)
}

export function orderBooks(state: LighterFakeState, q: Query) {
  return { ...OK, order_books: marketsOf(state, q).map(lighterFakeOrderBook) }
}

export function orderBookDetails(state: LighterFakeState, q: Query) {
  return {
    ...OK,
    order_book_details: marketsOf(state, q).map((m) =>
      lighterFakeOrderBookDetail(state, m, lighterFakeDailyStats(state, m)),
    ),
    spot_order_book_details: [],
  }
}

/** The synthetic book's levels, one `SimpleOrder` each (account 0). */
export function orderBookOrders(state: LighterFakeState, q: Query) {
  const m = marketById(state, int(q, 'market_id'))
  const n = limit(q, 250)
  if (!m) {
    throw new LighterFakeError(FAKE_CODES.invalidMarket, 'invalid market index')
  }
  const b = state.exchange.book(m.symbol)
  const side = (levels: typeof b.bids) =>
    levels.slice(0, n).map((l, i) => ({
      order_index: i + 1,
      order_id: String(i + 1),
      owner_account_index: 0,
      initial_base_amount: fixed(l.size.toFixed(), m.sizeDecimals),
      remaining_base_amount: fixed(l.size.toFixed(), m.sizeDecimals),
      price: fixed(l.price.toFixed(), m.priceDecimals),
      order_expiry: 0,
      transaction_time: 0,
    }))
  return {
    ...OK,
    total_asks: b.asks.length,
    asks: side(b.asks),
    total_bids: b.bids.length,
    bids: side(b.bids),
  }
}

/** Every market's day, and the venue's (`ExchangeStats`). */
export function exchangeStats(state: LighterFakeState) {
  const rows = state.markets.map((m) => ({
    m,
    day: lighterFakeDailyStats(state, m),
  }))
  return {
    ...OK,
    total: rows.length,
    order_book_stats: rows.map(({ m, day }) => ({
      symbol: m.symbol,
      last_trade_price: day.lastTradePrice,
      daily_trades_count: day.trades,
      daily_base_token_volume: day.baseVolume,
      daily_quote_token_volume: day.quoteVolume,
      daily_price_change: day.change,
    })),
    daily_usd_volume: rows.reduce((s, r) => s + r.day.quoteVolume, 0),
    daily_trades_count: rows.reduce((s, r) => s + r.day.trades, 0),
  }
}

/** The engine's current hourly rates, in the REST unit. */
export function fundingRates(state: LighterFakeState) {
  return {
    ...OK,
    funding_rates: state.markets.map((m) => ({
      market_id: m.marketId,
      exchange: 'lighter',
      symbol: m.symbol,
      rate: Number(
        restRateFromHourly(state.exchange.quote(m.symbol).fundingRateHourly),
      ),
    })),
  }
}
