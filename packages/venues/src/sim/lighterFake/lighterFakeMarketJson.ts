import type { LighterFakeDailyStats } from './lighterFakeDailyStats.js'
import {
  fixed,
  type LighterFakeMarket,
  type LighterFakeState,
} from './lighterFakeState.js'

/** `order_quote_limit` of a market without one (ccxt's recorded sample). */
const NO_QUOTE_LIMIT = '281474976.710655'
/** `insurance_fund_account_index` when none is named (ccxt's sample). */
const NO_ACCOUNT = 281474976710655

/**
 * A market as `orderBooks` lists it (`OrderBook`): ids, fees (0: the
 * fake trades as a standard account, without fees), minimums, decimals.
 * Perps have no base or quote asset (ids 0, as ccxt's sample shows).
 * `created_at` is empty: the fake does not know when a market listed.
 */
export function lighterFakeOrderBook(m: LighterFakeMarket) {
  return {
    symbol: m.symbol,
    market_id: m.marketId,
    market_type: 'perp',
    base_asset_id: 0,
    quote_asset_id: 0,
    status: 'active',
    taker_fee: '0.0000',
    is_taker_fee_enabled: false,
    maker_fee: '0.0000',
    is_maker_fee_enabled: false,
    liquidation_fee: '0.0000',
    min_base_amount: fixed(m.minBase, m.sizeDecimals),
    min_quote_amount: fixed(m.minQuote, 6),
    order_quote_limit: NO_QUOTE_LIMIT,
    supported_size_decimals: m.sizeDecimals,
    supported_price_decimals: m.priceDecimals,
    supported_quote_decimals: 6,
    created_at: '',
    multiplier: '1',
  }
}

/** The margin fractions (of 10 000) the fake derives from max leverage. */
export function lighterFakeMarginFractions(m: LighterFakeMarket) {
  const maintenance = Math.ceil(5_000 / m.maxLeverage)
  return {
    default_initial_margin_fraction: Math.ceil(
      10_000 / Math.min(10, m.maxLeverage),
    ),
    min_initial_margin_fraction: Math.ceil(10_000 / m.maxLeverage),
    maintenance_margin_fraction: maintenance,
    // the simulator closes a position out at maintenance
    closeout_margin_fraction: maintenance,
  }
}

/**
 * A market as `orderBookDetails` lists it (`PerpsOrderBookDetail`): the
 * `OrderBook` row, margins, prices (index = mark: the simulator has no
 * separate index), the day's figures from the fake's trades. Not
 * modelled, so zero or empty: `daily_chart`, the funding premium and
 * clamps, the base interest rate, strategy and market flags.
 */
export function lighterFakeOrderBookDetail(
  state: LighterFakeState,
  m: LighterFakeMarket,
  day: LighterFakeDailyStats,
) {
  const mark = fixed(state.exchange.quote(m.symbol).mark, m.priceDecimals)
  return {
    ...lighterFakeOrderBook(m),
    size_decimals: m.sizeDecimals,
    price_decimals: m.priceDecimals,
    quote_multiplier: 1,
    ...lighterFakeMarginFractions(m),
    mark_price: mark,
    index_price: mark,
    last_trade_price: day.lastTradePrice,
    daily_trades_count: day.trades,
    daily_base_token_volume: day.baseVolume,
    daily_quote_token_volume: day.quoteVolume,
    daily_price_low: day.low,
    daily_price_high: day.high,
    daily_price_change: day.change,
    open_interest: day.openInterest,
    daily_chart: {},
    market_config: {
      market_margin_mode: 0,
      insurance_fund_account_index: NO_ACCOUNT,
      liquidation_mode: 0,
      force_reduce_only: false,
      trading_hours: '',
      funding_fee_discounts_enabled: false,
      hidden: false,
      rfq_enabled: false,
    },
    strategy_index: 0,
    market_flags: 0,
    funding_premium_multiplier: 0,
    funding_clamp_small: '0',
    funding_clamp_big: '0',
    base_interest_rate: '0',
  }
}
