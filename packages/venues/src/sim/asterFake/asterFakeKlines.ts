import { type Decimal, dec, decString } from '@dn/core'
import { AsterFakeError, invalidParam, mandatory } from './asterFakeError.js'
import { marketTrades } from './asterFakeMarketTrades.js'
import type { AsterFakeState } from './asterFakeState.js'

const MINUTE = 60_000
/** Kline intervals (futures v3 doc ENUM "Kline/Candlestick chart intervals"); 1M is not served. */
const INTERVALS: Readonly<Record<string, number>> = {
  '1m': MINUTE,
  '3m': 3 * MINUTE,
  '5m': 5 * MINUTE,
  '15m': 15 * MINUTE,
  '30m': 30 * MINUTE,
  '1h': 60 * MINUTE,
  '2h': 120 * MINUTE,
  '4h': 240 * MINUTE,
  '6h': 360 * MINUTE,
  '8h': 480 * MINUTE,
  '12h': 720 * MINUTE,
  '1d': 1440 * MINUTE,
  '3d': 3 * 1440 * MINUTE,
  '1w': 7 * 1440 * MINUTE,
}

/** One candle of the marks seen and the trades made in [open, close]. */
interface FakeCandle {
  readonly open: number
  readonly close: number
  readonly o: string
  readonly h: string
  readonly l: string
  readonly c: string
  readonly volume: Decimal
  readonly quoteVolume: Decimal
  readonly takerBuy: Decimal
  readonly takerBuyQuote: Decimal
  readonly count: number
  readonly firstId: number
  readonly lastId: number
}

/**
 * Candles of `ms` width (a whole number of minutes) from the first mark
 * the fake saw (or `start`) to `end`: OHLC from the minute bars of seen
 * marks (a candle without one repeats the last close), volumes and counts
 * from every account's fills.
 */
function candles(
  state: AsterFakeState,
  symbol: string,
  ms: number,
  start: number,
  end: number,
): FakeCandle[] {
  const tape = state.tape.get(symbol) ?? []
  const first = tape[0]
  if (!first) return []
  const from = Math.max(Math.floor(start / ms), Math.floor(first.t / ms)) * ms
  const trades = marketTrades(state, symbol, from)
  const out: FakeCandle[] = []
  let i = 0
  let prev = first.o
  // the last bar before the window opens the first candle
  while (i < tape.length && (tape[i]?.t ?? 0) < from)
    prev = tape[i++]?.c ?? prev
  for (let open = from; open <= end; open += ms) {
    const close = open + ms - 1
    let o = prev
    let h = dec(prev)
    let l = dec(prev)
    let seen = false
    while (i < tape.length && (tape[i]?.t ?? 0) <= close) {
      const bar = tape[i++]
      if (!bar) break
      if (!seen) {
        o = bar.o
        h = dec(bar.h)
        l = dec(bar.l)
        seen = true
      }
      if (dec(bar.h).gt(h)) h = dec(bar.h)
      if (dec(bar.l).lt(l)) l = dec(bar.l)
      prev = bar.c
    }
    const inside = trades.filter((t) => t.time >= open && t.time <= close)
    let volume = dec(0)
    let quote = dec(0)
    let takerBuy = dec(0)
    let takerBuyQuote = dec(0)
    for (const t of inside) {
      volume = volume.add(t.size)
      quote = quote.add(dec(t.size).mul(t.price))
      if (t.side === 'long' && !t.maker) {
        takerBuy = takerBuy.add(t.size)
        takerBuyQuote = takerBuyQuote.add(dec(t.size).mul(t.price))
      }
    }
    out.push({
      open,
      close,
      o,
      h: decString(h),
      l: decString(l),
      c: prev,
      volume,
      quoteVolume: quote,
      takerBuy,
      takerBuyQuote,
      count: inside.length,
      firstId: inside[0]?.tradeId ?? -1,
      lastId: inside[inside.length - 1]?.tradeId ?? -1,
    })
  }
  return out
}

/**
 * `GET /fapi/v3/klines` (weight by `limit`: 1/2/5/10): the rows of the
 * futures v3 doc's "Kline/Candlestick Data", oldest first — the last
 * `limit` (default 500, max 1500) up to `endTime` (now), or the first
 * `limit` from `startTime`. Only candles from the first mark the fake saw
 * on exist.
 */
export function klines(state: AsterFakeState, q: URLSearchParams): unknown[] {
  const symbol = q.get('symbol') ?? ''
  const raw = q.get('interval')
  if (!raw) throw mandatory('interval')
  const ms = INTERVALS[raw]
  if (!ms) throw new AsterFakeError(-1120, 'Invalid interval.')
  const limit = Number(q.get('limit') ?? 500)
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > 1500) {
    throw invalidParam('limit')
  }
  const now = state.now()
  const startRaw = q.get('startTime')
  const end = Math.min(Number(q.get('endTime') ?? now), now)
  const start = startRaw === null ? end - limit * ms : Number(startRaw)
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end)) {
    throw invalidParam('startTime')
  }
  const all = candles(state, symbol, ms, start, end)
  const rows = startRaw === null ? all.slice(-limit) : all.slice(0, limit)
  return rows.map((k) => [
    k.open,
    k.o,
    k.h,
    k.l,
    k.c,
    decString(k.volume),
    k.close,
    decString(k.quoteVolume),
    k.count,
    decString(k.takerBuy),
    decString(k.takerBuyQuote),
    '0',
  ])
}
