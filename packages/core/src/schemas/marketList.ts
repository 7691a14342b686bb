import * as v from 'valibot'
import {
  DateTimeSchema,
  DecimalStringSchema,
  MarketSchema,
  VenueSchema,
} from './common.js'

/** `GET /v1/markets?venue=<venue>`: exactly one venue. */
export const MarketsQuery = v.strictObject({ venue: VenueSchema })
export type MarketsQuery = v.InferOutput<typeof MarketsQuery>

const QuoteDecimal = v.nullable(DecimalStringSchema)

/**
 * One listed market: the venue's rules, and its current quote. Quote fields
 * are null when the venue had no quote for it at the time (the rest of the
 * list still answers).
 */
const Market = v.object({
  symbol: MarketSchema,
  tickSize: DecimalStringSchema,
  sizeStep: DecimalStringSchema,
  minBase: DecimalStringSchema,
  minNotionalUsd: DecimalStringSchema,
  maxLeverage: v.number(),
  mark: QuoteDecimal,
  bid: QuoteDecimal,
  ask: QuoteDecimal,
  /** funding per hour as a fraction (0.0001 = 0.01 %) */
  fundingRateHourly: QuoteDecimal,
  /** fundingRateHourly × 24 × 365, in percent (as minFundingApy) */
  fundingApy: QuoteDecimal,
  nextFundingAt: v.nullable(DateTimeSchema),
})
export type Market = v.InferOutput<typeof Market>

/** 200 answer of the markets read. */
export const MarketList = v.object({
  venue: VenueSchema,
  markets: v.array(Market),
})
export type MarketList = v.InferOutput<typeof MarketList>
