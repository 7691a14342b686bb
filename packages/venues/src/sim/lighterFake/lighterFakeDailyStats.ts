import { dec } from '@dn/core'
import type { LighterFakeMarket, LighterFakeState } from './lighterFakeState.js'
import { lighterFakeTrades } from './lighterFakeTrades.js'

const DAY_MS = 86_400_000

/** A market's last 24 hours, from the trades the fake knows. */
export interface LighterFakeDailyStats {
  /** the last trade's price; the mark before any trade */
  readonly lastTradePrice: number
  readonly trades: number
  readonly baseVolume: number
  readonly quoteVolume: number
  /** 0 without a trade in the window */
  readonly low: number
  readonly high: number
  /** percent, from the window's first trade to its last [unverified: the venue's reference price] */
  readonly change: number
  /** the longs of the accounts the fake has placed orders for */
  readonly openInterest: number
}

export function lighterFakeDailyStats(
  state: LighterFakeState,
  m: LighterFakeMarket,
): LighterFakeDailyStats {
  const all = lighterFakeTrades(state, m.marketId)
  const since = state.now() - DAY_MS
  const day = all.filter((t) => t.fill.time >= since)
  const prices = day.map((t) => Number(t.fill.price))
  let base = dec(0)
  let quote = dec(0)
  for (const t of day) {
    base = base.add(t.fill.size)
    quote = quote.add(dec(t.fill.size).mul(t.fill.price))
  }
  const first = prices[0]
  const last = prices.at(-1)
  const owners = new Set([...state.ordersByIndex.values()].map((o) => o.owner))
  let longs = dec(0)
  for (const owner of owners) {
    for (const p of state.exchange.positions(owner)) {
      if (p.market === m.symbol && dec(p.size).gt(0)) {
        longs = longs.add(p.size)
      }
    }
  }
  return {
    lastTradePrice: Number(
      all.at(-1)?.fill.price ?? state.exchange.quote(m.symbol).mark,
    ),
    trades: day.length,
    baseVolume: base.toNumber(),
    quoteVolume: quote.toNumber(),
    low: prices.length ? Math.min(...prices) : 0,
    high: prices.length ? Math.max(...prices) : 0,
    change:
      first !== undefined && last !== undefined
        ? ((last - first) / first) * 100
        : 0,
    openInterest: longs.toNumber(),
  }
}
