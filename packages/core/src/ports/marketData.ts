import type { VenueId } from '../domain/venue.js'

/** A venue's published precision rules for one listed market. */
export interface MarketRules {
  readonly venue: VenueId
  /** exact listed symbol, e.g. `BTC`, `xyz:TSLA`, `BTCUSDT` */
  readonly symbol: string
  readonly tickSize: string
  readonly sizeStep: string
  readonly minNotionalUsd: string
  readonly minBase: string
  readonly maxLeverage: number
}

export interface MarketQuote {
  readonly venue: VenueId
  readonly symbol: string
  readonly mark: string
  readonly bid: string
  readonly ask: string
  /** funding rate per hour as a fraction (0.0001 = 0.01 %) */
  readonly fundingRateHourly: string
}

/**
 * Read-only market data the API needs to accept commands. Throws
 * UnavailableError('market_data_unavailable') when the venue cannot answer.
 */
export interface MarketData {
  /** @returns undefined when the venue does not list `symbol` */
  rules(venue: VenueId, symbol: string): Promise<MarketRules | undefined>
  quote(venue: VenueId, symbol: string): Promise<MarketQuote>
}
