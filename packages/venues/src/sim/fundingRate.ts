import { type Decimal, dec } from '@dn/core'
import { hashSeed, randomInt, seededRandom } from './seededRandom.js'
import type { SimMarket } from './simMarkets.js'

/**
 * The hourly funding rate of `market` during funding period `period` (ms /
 * the venue's funding interval; the UTC hour by default): the listed base
 * rate times 1 ± up to 20 %, a seeded wobble drawn from the period itself,
 * so the rate shown in a quote during a period is exactly the rate settled
 * at its end, whatever the call pattern. The sign never flips, so venues
 * keep a stable spread.
 */
export function fundingRate(
  market: SimMarket,
  seed: number,
  period: number,
): Decimal {
  const random = seededRandom(
    hashSeed(seed, market.venue, market.symbol, 'funding', period),
  )
  const wobblePct = randomInt(random, -20, 20)
  return dec(market.fundingRateHourly).mul(dec(100 + wobblePct).div(100))
}
