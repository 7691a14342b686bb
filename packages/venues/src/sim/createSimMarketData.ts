import {
  dec,
  decString,
  floorToStep,
  type MarketData,
  type MarketQuote,
  type MarketRules,
  type VenueId,
} from '@dn/core'
import { SIM_MARKETS, type SimMarket } from './simMarkets.js'

export interface SimMarketDataOptions {
  readonly markets?: readonly SimMarket[]
}

/**
 * Market data of the simulated venues: published rules and a quote around
 * the mark (one tick either side). Marks are fixed here; the simulated
 * exchange engine moves them.
 */
export function createSimMarketData(
  options: SimMarketDataOptions = {},
): MarketData & {
  setMark(venue: VenueId, symbol: string, mark: string): void
} {
  const markets = new Map<string, SimMarket>()
  const marks = new Map<string, string>()
  for (const m of options.markets ?? SIM_MARKETS) {
    markets.set(`${m.venue}|${m.symbol}`, m)
    marks.set(`${m.venue}|${m.symbol}`, m.initialMark)
  }
  const find = (venue: VenueId, symbol: string) =>
    markets.get(`${venue}|${symbol}`)
  return {
    async rules(venue, symbol): Promise<MarketRules | undefined> {
      const m = find(venue, symbol)
      if (!m) return undefined
      const { initialMark: _m, fundingRateHourly: _f, ...rules } = m
      return rules
    },
    async quote(venue, symbol): Promise<MarketQuote> {
      const m = find(venue, symbol)
      if (!m) throw new RangeError(`${venue} does not list ${symbol}`)
      const mark = dec(marks.get(`${venue}|${symbol}`) ?? m.initialMark)
      const tick = dec(m.tickSize)
      return {
        venue,
        symbol,
        mark: decString(mark),
        bid: decString(floorToStep(mark, tick).sub(tick)),
        ask: decString(floorToStep(mark, tick).add(tick)),
        fundingRateHourly: m.fundingRateHourly,
      }
    },
    setMark(venue, symbol, mark) {
      if (!find(venue, symbol))
        throw new RangeError(`${venue} does not list ${symbol}`)
      marks.set(`${venue}|${symbol}`, mark)
    },
  }
}
