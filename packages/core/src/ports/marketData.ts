import type { VenueId } from '../domain/venue.js'

/** A venue's published precision rules for one listed market. */
export interface MarketRules {
  readonly venue: VenueId
  /** exact listed symbol, e.g. `BTC`, `xyz:TSLA`, `BTCUSDT` */
  readonly symbol: string
  /** smallest price increment (Hyperliquid: 10^-(6 - szDecimals)) */
  readonly tickSize: string
  /**
   * Hyperliquid's extra rule: at most this many significant figures unless
   * the price is an integer; null on venues with a plain tick
   */
  readonly maxSigFigs: number | null
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
  /** Unix ms the venue data was read (a shared snapshot may be older) */
  readonly at?: number | undefined
  /** Unix ms of the next funding settlement, when the venue says */
  readonly nextFundingAt?: number | undefined
}

/**
 * Read-only market data the API needs to accept commands. Throws
 * UnavailableError('market_data_unavailable') when the venue cannot answer.
 */
export interface MarketData {
  /** @returns undefined when the venue does not list `symbol` */
  rules(venue: VenueId, symbol: string): Promise<MarketRules | undefined>
  /**
   * The symbols `venue` lists (each has `rules`); absent where market data
   * cannot list markets, which the markets read answers 503
   */
  symbols?(venue: VenueId): Promise<readonly string[]>
  quote(venue: VenueId, symbol: string): Promise<MarketQuote>
}
