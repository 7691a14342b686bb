import { dec, decString, type MarketRules } from '@dn/core'
import { ASTER_LIMITS } from '../../aster/limits/asterLimits.js'
import {
  type AsterRateLimitEntry,
  asterRateLimitEntries,
} from '../../aster/limits/asterRateLimitEntries.js'
import {
  type AsterFilters,
  parseAsterFilters,
} from '../../aster/precision/asterFilters.js'
import type { SimLevel } from '../syntheticBook.js'
import { AsterFakeError, invalidParam } from './asterFakeError.js'
import { fundingRateHistory } from './asterFakeFundingHistory.js'
import { klines } from './asterFakeKlines.js'
import type { AsterFakeState } from './asterFakeState.js'
import {
  FAKE_FUNDING_INTERVAL_HOURS,
  publishedFundingRate,
} from './asterFakeTape.js'
import { ticker24hr } from './asterFakeTicker24hr.js'

type Query = URLSearchParams

const invalidSymbol = () => new AsterFakeError(-1121, 'Invalid symbol.')

function decimalsOf(step: string): number {
  return dec(step).decimalPlaces()
}

/** One `exchangeInfo` symbol for a listed engine market. */
function symbolInfo(r: MarketRules) {
  return {
    symbol: r.symbol,
    pair: r.symbol,
    contractType: 'PERPETUAL',
    status: 'TRADING',
    baseAsset: r.symbol.replace(/USDT$/, ''),
    quoteAsset: 'USDT',
    marginAsset: 'USDT',
    pricePrecision: decimalsOf(r.tickSize),
    quantityPrecision: decimalsOf(r.sizeStep),
    // the engine's grid starts at 0; minPrice = tick keeps it there
    filters: [
      {
        filterType: 'PRICE_FILTER',
        minPrice: r.tickSize,
        maxPrice: '10000000',
        tickSize: r.tickSize,
      },
      {
        filterType: 'LOT_SIZE',
        minQty: r.minBase,
        maxQty: '100000',
        stepSize: r.sizeStep,
      },
      {
        filterType: 'MARKET_LOT_SIZE',
        minQty: r.minBase,
        maxQty: '10000',
        stepSize: r.sizeStep,
      },
      { filterType: 'MAX_NUM_ORDERS', limit: 200 },
      { filterType: 'MAX_NUM_ALGO_ORDERS', limit: 100 },
      { filterType: 'MIN_NOTIONAL', notional: r.minNotionalUsd },
      {
        filterType: 'PERCENT_PRICE',
        multiplierUp: '1.1500',
        multiplierDown: '0.8500',
        multiplierDecimal: 4,
      },
    ],
    OrderType: [
      'LIMIT',
      'MARKET',
      'STOP',
      'STOP_MARKET',
      'TAKE_PROFIT',
      'TAKE_PROFIT_MARKET',
    ],
    timeInForce: ['GTC', 'IOC', 'GTX'],
    liquidationFee: '0.010000',
    marketTakeBound: '0.30',
  }
}

/** The parsed filters of a listed symbol. @throws AsterFakeError -1121 */
export function filtersOf(state: AsterFakeState, symbol: string): AsterFilters {
  const r = state.exchange.rules(symbol)
  const f = r ? parseAsterFilters(symbolInfo(r)) : null
  if (!f) throw invalidSymbol()
  return f
}

function requireSymbol(state: AsterFakeState, q: Query): string {
  const symbol = q.get('symbol') ?? ''
  if (!state.exchange.rules(symbol)) throw invalidSymbol()
  return symbol
}

function premium(state: AsterFakeState, symbol: string) {
  const q = state.exchange.quote(symbol)
  const now = state.now()
  return {
    symbol,
    markPrice: q.mark,
    indexPrice: q.mark,
    estimatedSettlePrice: q.mark,
    lastFundingRate: publishedFundingRate(q.fundingRateHourly),
    interestRate: '0.00010000',
    nextFundingTime: state.exchange.nextFundingAt(),
    time: now,
  }
}

function fundingInfo(state: AsterFakeState, symbol: string) {
  return {
    symbol,
    interestRate: '0.00010000',
    time: state.now(),
    fundingIntervalHours: FAKE_FUNDING_INTERVAL_HOURS,
    fundingFeeCap: 0.03,
    fundingFeeFloor: -0.03,
  }
}

function bookTicker(state: AsterFakeState, symbol: string) {
  const book = state.exchange.book(symbol)
  const mark = state.exchange.quote(symbol).mark
  const bid = book.bids[0]
  const ask = book.asks[0]
  return {
    symbol,
    bidPrice: bid ? decString(bid.price) : mark,
    bidQty: bid ? decString(bid.size) : '0',
    askPrice: ask ? decString(ask.price) : mark,
    askQty: ask ? decString(ask.size) : '0',
    time: state.now(),
  }
}

function tickerPrice(state: AsterFakeState, symbol: string) {
  const price = state.exchange.quote(symbol).mark
  return { symbol, price, time: state.now() }
}

/**
 * ccxt's `fetchMarkets` also reads the spot host's exchangeInfo
 * (`sapiPublic` → `/api/v3/exchangeInfo`); the fake lists no spot
 * markets there, only the USDT asset, in the spot doc's shape.
 */
function spotExchangeInfo(state: AsterFakeState) {
  return {
    timezone: 'UTC',
    serverTime: state.now(),
    rateLimits: [],
    exchangeFilters: [],
    assets: [{ asset: 'USDT' }],
    symbols: [],
  }
}

/** The doc's "Valid limits" of `depth`. */
const DEPTH_LIMITS = new Set([5, 10, 20, 50, 100, 500, 1000])

const all = (state: AsterFakeState) =>
  state.exchange.listed().map((r) => r.symbol)

/**
 * The public (MARKET_DATA / NONE) GET routes.
 * @param rateLimits what exchangeInfo publishes @default ASTER_LIMITS
 * @returns the JSON answer, or undefined when `path` is not one of them
 */
export function handleMarket(
  state: AsterFakeState,
  path: string,
  q: Query,
  rateLimits: readonly AsterRateLimitEntry[] = asterRateLimitEntries(
    ASTER_LIMITS,
  ),
): unknown {
  switch (path) {
    case '/fapi/v3/ping':
      return {}
    case '/fapi/v3/time':
      return { serverTime: state.now() }
    case '/fapi/v3/exchangeInfo':
      return {
        timezone: 'UTC',
        serverTime: state.now(),
        rateLimits,
        exchangeFilters: [],
        assets: [
          { asset: 'USDT', marginAvailable: true, autoAssetExchange: 0 },
        ],
        symbols: state.exchange.listed().map(symbolInfo),
      }
    case '/fapi/v3/premiumIndex':
      return q.has('symbol')
        ? premium(state, requireSymbol(state, q))
        : all(state).map((s) => premium(state, s))
    case '/fapi/v3/fundingInfo':
      return q.has('symbol')
        ? [fundingInfo(state, requireSymbol(state, q))]
        : all(state).map((s) => fundingInfo(state, s))
    case '/fapi/v3/ticker/bookTicker':
      return q.has('symbol')
        ? bookTicker(state, requireSymbol(state, q))
        : all(state).map((s) => bookTicker(state, s))
    case '/fapi/v3/ticker/24hr':
      return q.has('symbol')
        ? ticker24hr(state, requireSymbol(state, q))
        : all(state).map((s) => ticker24hr(state, s))
    case '/fapi/v3/ticker/price':
      return q.has('symbol')
        ? tickerPrice(state, requireSymbol(state, q))
        : all(state).map((s) => tickerPrice(state, s))
    case '/fapi/v3/klines':
      requireSymbol(state, q)
      return klines(state, q)
    case '/fapi/v3/fundingRate':
      if (q.has('symbol')) requireSymbol(state, q)
      return fundingRateHistory(state, q)
    case '/api/v3/exchangeInfo':
      return spotExchangeInfo(state)
    case '/fapi/v3/depth': {
      const symbol = requireSymbol(state, q)
      const limit = Number(q.get('limit') ?? 500)
      if (!DEPTH_LIMITS.has(limit)) throw invalidParam('limit')
      const book = state.exchange.book(symbol)
      const level = (l: SimLevel) => [decString(l.price), decString(l.size)]
      return {
        lastUpdateId: state.now(),
        E: state.now(),
        T: state.now(),
        bids: book.bids.slice(0, limit).map(level),
        asks: book.asks.slice(0, limit).map(level),
      }
    }
    default:
      return undefined
  }
}
