import { type Decimal, dec, roundPrice } from '@dn/core'
import type { MarkWalk } from './createMarkWalk.js'
import {
  hashSeed,
  randomInt,
  type SeededRandom,
  seededRandom,
} from './seededRandom.js'
import type { SimMarket } from './simMarkets.js'
import { type UnderlyingPrices, underlyingAsset } from './underlyingPrices.js'

/** Largest fixed basis of a venue's market against the underlying, bps. */
const MAX_BASIS_BPS = 5
/** Largest per-step noise on top of it, bps. */
const MAX_NOISE_BPS = 1

/**
 * A venue's mark that follows the asset's one underlying price: the
 * underlying times a basis fixed per (seed, venue, asset) of up to ±5 bps
 * plus ±1 bp of per-step noise, floored to the market's grid. Pinned, it
 * still draws its noise, so the sequence depends only on seed and steps.
 */
export function createBasisWalk(
  market: SimMarket,
  seed: number,
  underlying: UnderlyingPrices,
  startStep: number,
): MarkWalk {
  const asset = underlyingAsset(market.symbol)
  const basisBps = randomInt(
    seededRandom(hashSeed(seed, market.venue, asset, 'basis')),
    -MAX_BASIS_BPS,
    MAX_BASIS_BPS,
  )
  let random: SeededRandom = seededRandom(
    hashSeed(seed, market.venue, market.symbol, 'noise'),
  )
  const priced = (step: number, noiseBps: number): Decimal => {
    const u = underlying.at(asset, market.initialMark, step)
    const p = roundPrice(
      market,
      u.mul(dec(10_000 + basisBps + noiseBps).div(10_000)),
      'down',
    )
    // a grid coarser than the price would floor it to nothing
    return p.gt(0) ? p : dec(market.tickSize)
  }
  let mark = priced(startStep, 0)
  let pinned = false
  return {
    get mark() {
      return mark
    },
    get pinned() {
      return pinned
    },
    step(at) {
      const noise = randomInt(random, -MAX_NOISE_BPS, MAX_NOISE_BPS)
      if (!pinned) mark = priced(at, noise)
    },
    pin(next) {
      pinned = next !== null
      if (next !== null) mark = next
    },
    toSnapshot: () => ({ mark: mark.toString(), pinned, random: random.state }),
    restore(s) {
      mark = dec(s.mark)
      pinned = s.pinned
      random = seededRandom(s.random)
    },
  }
}
