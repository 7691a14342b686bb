import { dec, decString } from '@dn/core'
import {
  badAnswer,
  decField,
  intField,
  isObj,
  type Json,
} from './lighterWireValue.js'

/**
 * Lighter's perp markets as `orderBookDetails` describes them. Orders
 * carry integers: `BaseAmount = size x 10^size_decimals` and
 * `Price = price x 10^price_decimals`, so the tick and step are powers of
 * ten. lighter.md §3 leaves open whether `size_decimals` ever differs from
 * `supported_size_decimals`; a market where they differ is kept but
 * marked, and the adapter refuses to trade it rather than guess.
 *
 * @module
 */

export interface LighterMarket {
  readonly symbol: string
  readonly marketId: number
  readonly sizeDecimals: number
  readonly priceDecimals: number
  /** smallest order size, a decimal string */
  readonly minBase: string
  /** smallest order value in USD */
  readonly minQuote: string
  readonly maxLeverage: number
  readonly mark: string | null
  /** size/price decimals disagree with the supported_* ones */
  readonly ambiguousDecimals: boolean
}

/**
 * Parses `orderBookDetails` into the active perp markets.
 *
 * @throws {VenueUnavailableError} on an answer without `order_book_details`.
 */
export function parseLighterMarkets(raw: Json): LighterMarket[] {
  const rows = raw.order_book_details
  if (!Array.isArray(rows)) throw badAnswer('orderBookDetails', raw)
  const out: LighterMarket[] = []
  for (const r of rows) {
    if (!isObj(r) || typeof r.symbol !== 'string') continue
    if (r.market_type !== undefined && r.market_type !== 'perp') continue
    if (r.status !== undefined && r.status !== 'active') continue
    const marketId = intField(r.market_id)
    const sizeDecimals = intField(r.size_decimals)
    const priceDecimals = intField(r.price_decimals)
    const minBase = decField(r.min_base_amount)
    const minQuote = decField(r.min_quote_amount)
    if (
      marketId === null ||
      sizeDecimals === null ||
      priceDecimals === null ||
      minBase === null ||
      minQuote === null
    ) {
      continue
    }
    const supportedSize = intField(r.supported_size_decimals) ?? sizeDecimals
    const supportedPrice = intField(r.supported_price_decimals) ?? priceDecimals
    // min_initial_margin_fraction is in 1/10 000 (200 = 2% = 50x)
    const imf = intField(r.min_initial_margin_fraction)
    out.push({
      symbol: r.symbol,
      marketId,
      sizeDecimals,
      priceDecimals,
      minBase,
      minQuote,
      maxLeverage: imf && imf > 0 ? Math.floor(10_000 / imf) : 1,
      mark: decField(r.mark_price),
      ambiguousDecimals:
        supportedSize !== sizeDecimals || supportedPrice !== priceDecimals,
    })
  }
  return out
}

/** `10^-decimals` as a decimal string (`0.01` for 2). */
export function stepOf(decimals: number): string {
  return decString(dec(10).pow(-decimals))
}
