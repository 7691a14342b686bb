import type { Clock, MarketData, VenueId } from '@dn/core'
import type { SimMarket } from './simMarkets.js'
import { createSimVenues } from './simVenues.js'

export interface SimMarketDataOptions {
  readonly markets?: readonly SimMarket[]
  /** @default 1 */
  readonly seed?: number
  /**
   * @default a clock stopped at creation, so marks stay at their listed
   * start (what API tests price against); pass a moving clock for a walk
   */
  readonly clock?: Clock
}

/**
 * Market data of the simulated venues (a thin wrapper over
 * `createSimVenues(...).marketData`), plus `setMark`, which pins a mark and
 * overrides the walk.
 */
export function createSimMarketData(
  options: SimMarketDataOptions = {},
): MarketData & {
  setMark(venue: VenueId, symbol: string, mark: string): void
} {
  const start = Date.now()
  const venues = createSimVenues({
    clock: options.clock ?? { now: () => start },
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...(options.markets ? { markets: options.markets } : {}),
  })
  return {
    rules: (venue, symbol) => venues.marketData.rules(venue, symbol),
    symbols: async (venue) => (await venues.marketData.symbols?.(venue)) ?? [],
    quote: (venue, symbol) => venues.marketData.quote(venue, symbol),
    setMark: (venue, symbol, mark) =>
      venues.exchanges[venue].setMark(symbol, mark),
  }
}
