import { type Decimal, dec, roundPrice } from '@dn/core'
import {
  hashSeed,
  randomInt,
  type SeededRandom,
  seededRandom,
} from './seededRandom.js'
import type { SimMarket } from './simMarkets.js'

/** What a walk needs to go on after a restart exactly as it would have. */
export interface MarkWalkSnapshot {
  readonly mark: string
  readonly pinned: boolean
  /** the walk's PRNG state (`SeededRandom.state`) */
  readonly random: number
}

/** The mark of one market, moved one discrete step at a time. */
export interface MarkWalk {
  readonly mark: Decimal
  /** true while a test pinned the mark */
  readonly pinned: boolean
  /** one step, to the engine's absolute step `at` */
  step(at: number): void
  /** pins the mark (null resumes the walk from the pinned value) */
  pin(mark: Decimal | null): void
  toSnapshot(): MarkWalkSnapshot
  restore(snapshot: MarkWalkSnapshot): void
}

/**
 * A seeded random walk on the market's price grid. Each market has its own
 * stream (seed, venue and symbol hashed), and one draw is taken per step
 * even while pinned, so the sequence depends only on seed and step count.
 * A move rounds away from the old mark (up when rising, down when falling),
 * so every non-zero move is at least one grid step.
 */
export function createMarkWalk(
  market: SimMarket,
  seed: number,
  maxMoveBps = 5,
): MarkWalk {
  let random: SeededRandom = seededRandom(
    hashSeed(seed, market.venue, market.symbol),
  )
  let mark = dec(market.initialMark)
  let pinned = false
  return {
    get mark() {
      return mark
    },
    get pinned() {
      return pinned
    },
    step() {
      const bps = randomInt(random, -maxMoveBps, maxMoveBps)
      if (pinned || bps === 0) return
      const moved = mark.mul(dec(10_000 + bps).div(10_000))
      mark = roundPrice(market, moved, bps > 0 ? 'up' : 'down')
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
