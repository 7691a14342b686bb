import { type Decimal, dec } from '@dn/core'
import {
  hashSeed,
  randomInt,
  type SeededRandom,
  seededRandom,
} from './seededRandom.js'

/**
 * One price per asset that every simulated venue quotes around (each with
 * its own basis, `createBasisWalk.ts`), so BTC on hl, lighter and aster
 * move together as one market does.
 */
export interface UnderlyingPrices {
  /**
   * The asset's price at the engines' absolute step `step`, walking up to
   * it. `initial` starts an asset not seen yet. A step older than the
   * kept history answers the oldest kept price: only an engine no one
   * asked anything for that long lags that far.
   */
  at(asset: string, initial: string, step: number): Decimal
  toSnapshot(): UnderlyingPricesSnapshot
}

export interface UnderlyingAssetSnapshot {
  readonly step: number
  readonly price: string
  readonly random: number
  /** recent prices, oldest first, for engines a few steps behind */
  readonly history: readonly (readonly [step: number, price: string])[]
}

export interface UnderlyingPricesSnapshot {
  readonly assets: readonly (readonly [string, UnderlyingAssetSnapshot])[]
}

interface AssetWalk {
  step: number
  price: Decimal
  random: SeededRandom
  /** step → price, insertion (step) order */
  readonly history: Map<number, Decimal>
}

/** Steps of history kept in memory; an hour at the default 1 s step. */
const HISTORY = 3_600
/** Steps of history saved: engines are brought up to now before a save. */
const SAVED_HISTORY = 64
/**
 * Steps walked at most to catch up (six hours at the default 1 s step, as
 * the engines' MAX_REPLAY_MS): each costs a decimal multiplication, and a
 * week of them stalled the first request after a restart.
 */
const MAX_CATCH_UP_STEPS = 21_600
const MAX_MOVE_BPS = 5
const SIGNIFICANT = 12

/** The asset a venue's symbol trades: `BTCUSDT` and `BTC` are both `BTC`. */
export function underlyingAsset(symbol: string): string {
  return symbol.replace(/USDT$/, '')
}

/**
 * Seeded walks (±5 bps a step, 12 significant digits) per asset, from one
 * user seed: the same seed and steps give the same prices.
 */
export function createUnderlyingPrices(
  seed: number,
  restore?: UnderlyingPricesSnapshot,
): UnderlyingPrices {
  const walks = new Map<string, AssetWalk>()
  for (const [asset, s] of restore?.assets ?? []) {
    walks.set(asset, {
      step: s.step,
      price: dec(s.price),
      random: seededRandom(s.random),
      history: new Map(s.history.map(([k, p]) => [k, dec(p)])),
    })
  }
  return {
    at(asset, initial, step) {
      let w = walks.get(asset)
      if (!w) {
        w = {
          step,
          price: dec(initial),
          random: seededRandom(hashSeed(seed, 'underlying', asset)),
          history: new Map([[step, dec(initial)]]),
        }
        walks.set(asset, w)
      }
      // a long stop is a pause: the price walks on from where it was
      if (step - w.step > MAX_CATCH_UP_STEPS) w.step = step - MAX_CATCH_UP_STEPS
      while (w.step < step) {
        const bps = randomInt(w.random, -MAX_MOVE_BPS, MAX_MOVE_BPS)
        w.step += 1
        w.price = w.price
          .mul(dec(10_000 + bps).div(10_000))
          .toSignificantDigits(SIGNIFICANT)
        w.history.set(w.step, w.price)
        if (w.history.size > HISTORY) {
          w.history.delete(w.history.keys().next().value as number)
        }
      }
      if (step === w.step) return w.price
      return w.history.get(step) ?? (w.history.values().next().value as Decimal)
    },
    toSnapshot: () => ({
      assets: [...walks].map(([asset, w]) => [
        asset,
        {
          step: w.step,
          price: w.price.toString(),
          random: w.random.state,
          history: [...w.history]
            .slice(-SAVED_HISTORY)
            .map(([k, p]) => [k, p.toString()] as const),
        },
      ]),
    }),
  }
}
