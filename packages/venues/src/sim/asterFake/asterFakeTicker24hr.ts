import { dec, decString } from '@dn/core'
import { marketTrades } from './asterFakeMarketTrades.js'
import type { AsterFakeState } from './asterFakeState.js'
import { BAR_MS } from './asterFakeTape.js'

const DAY = 86_400_000

/**
 * One row of `GET /fapi/v3/ticker/24hr` (futures v3 doc "24hr Ticker
 * Price Change Statistics") over the rolling 24 h: prices from the minute
 * bars of the marks the fake saw (open: the mark at the window's start, to
 * the minute; last: the current mark), volumes and trade ids from every account's
 * fills in the window.
 */
export function ticker24hr(state: AsterFakeState, symbol: string) {
  const now = state.now()
  const from = now - DAY
  const last = state.exchange.quote(symbol).mark
  const tape = state.tape.get(symbol) ?? []
  // the minute bars that overlap the window
  const inside = tape.filter((b) => b.t + BAR_MS > from)
  const before = tape.filter((b) => b.t + BAR_MS <= from).at(-1)
  const head = inside[0]
  // the mark at the window's start, to the minute
  const open =
    head && (head.t <= from || !before) ? head.o : (before?.c ?? last)
  let high = dec(open)
  let low = dec(open)
  for (const b of inside) {
    if (dec(b.h).gt(high)) high = dec(b.h)
    if (dec(b.l).lt(low)) low = dec(b.l)
  }
  if (dec(last).gt(high)) high = dec(last)
  if (dec(last).lt(low)) low = dec(last)
  const trades = marketTrades(state, symbol, from)
  let volume = dec(0)
  let quote = dec(0)
  for (const t of trades) {
    volume = volume.add(t.size)
    quote = quote.add(dec(t.size).mul(t.price))
  }
  const change = dec(last).sub(open)
  return {
    symbol,
    priceChange: decString(change),
    priceChangePercent: dec(open).isZero()
      ? '0.000'
      : change.div(open).mul(100).toFixed(3),
    weightedAvgPrice: volume.isZero() ? last : decString(quote.div(volume)),
    prevClosePrice: open,
    lastPrice: last,
    lastQty: trades[trades.length - 1]?.size ?? '0',
    openPrice: open,
    highPrice: decString(high),
    lowPrice: decString(low),
    volume: decString(volume),
    quoteVolume: decString(quote),
    openTime: from,
    closeTime: now,
    firstId: trades[0]?.tradeId ?? -1,
    lastId: trades[trades.length - 1]?.tradeId ?? -1,
    count: trades.length,
  }
}
