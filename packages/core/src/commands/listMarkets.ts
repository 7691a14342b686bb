import type { ApiKeyRecord } from '../domain/apiKey.js'
import { apyPct } from '../domain/fundingApy.js'
import type { VenueId } from '../domain/venue.js'
import { UnavailableError } from '../errors/domain.js'
import { isAppError } from '../errors/errorBody.js'
import type { MarketData, MarketQuote } from '../ports/marketData.js'
import type { Market, MarketList } from '../schemas/marketList.js'
import { decString } from '../util/decimal.js'
import { msToIso } from '../util/time.js'
import { requireVenueGrant } from './accessChecks.js'

/** quotes asked of a venue at once: one listing can be hundreds of markets */
const QUOTES_AT_ONCE = 8

/**
 * Every market `venue` lists, with its rules and current quote (decimals as
 * strings). A market whose quote is unavailable keeps its rules with null
 * quote fields, so one silent market does not fail the list; a venue that
 * cannot list its markets answers 503 `market_data_unavailable`.
 *
 * @throws {ForbiddenError} `venue_not_granted` unless the key grants `venue`.
 */
export async function listMarkets(
  deps: { readonly markets: MarketData },
  key: ApiKeyRecord,
  venue: VenueId,
): Promise<MarketList> {
  requireVenueGrant(key, [venue])
  const { markets } = deps
  if (!markets.symbols) {
    throw new UnavailableError(
      'market_data_unavailable',
      `${venue} market listings are not available on this deployment`,
    )
  }
  const symbols = await markets.symbols(venue)
  const out: (Market | undefined)[] = new Array(symbols.length)
  let next = 0
  const work = async () => {
    while (next < symbols.length) {
      const i = next++
      out[i] = await marketOf(markets, venue, symbols[i] as string)
    }
  }
  await Promise.all(Array.from({ length: QUOTES_AT_ONCE }, work))
  return { venue, markets: out.filter((m) => m !== undefined) }
}

async function marketOf(
  markets: MarketData,
  venue: VenueId,
  symbol: string,
): Promise<Market | undefined> {
  // delisted between the listing and now: not listed any more
  const rules = await markets.rules(venue, symbol)
  if (!rules) return undefined
  const quote = await quoteOrNull(markets, venue, symbol)
  return {
    symbol: rules.symbol,
    tickSize: decString(rules.tickSize),
    sizeStep: decString(rules.sizeStep),
    minBase: decString(rules.minBase),
    minNotionalUsd: decString(rules.minNotionalUsd),
    maxLeverage: rules.maxLeverage,
    mark: quote ? decString(quote.mark) : null,
    bid: quote ? decString(quote.bid) : null,
    ask: quote ? decString(quote.ask) : null,
    fundingRateHourly: quote ? decString(quote.fundingRateHourly) : null,
    fundingApy: quote ? decString(apyPct(quote.fundingRateHourly)) : null,
    nextFundingAt:
      quote?.nextFundingAt === undefined ? null : msToIso(quote.nextFundingAt),
  }
}

/** The quote, or null when the venue has none now (unavailable, not a bug). */
async function quoteOrNull(
  markets: MarketData,
  venue: VenueId,
  symbol: string,
): Promise<MarketQuote | null> {
  try {
    return await markets.quote(venue, symbol)
  } catch (err) {
    if (
      isAppError(err) &&
      (err.code === 'market_data_unavailable' ||
        err.code === 'venue_unavailable')
    ) {
      return null
    }
    throw err
  }
}
