import {
  type Decimal,
  dec,
  floorToStep,
  type MarketRules,
  roundPrice,
} from '@dn/core'

/** One price level: `size` in base units. */
export interface SimLevel {
  readonly price: Decimal
  readonly size: Decimal
}

/** Bids best (highest) first, asks best (lowest) first. */
export interface SimBook {
  readonly bids: readonly SimLevel[]
  readonly asks: readonly SimLevel[]
}

interface SyntheticBookOptions {
  /** levels per side @default 10 */
  readonly levels?: number
  /** USD resting at level 1; level i holds i times this @default 20000 */
  readonly levelUsd?: number
}

type BookRules = Pick<MarketRules, 'tickSize' | 'maxSigFigs' | 'sizeStep'>

/**
 * A book around the mark: level i sits i spacings away, where a spacing is
 * the larger of three ticks and half a basis point (Hyperliquid's
 * significant-figure rule makes a plain tick far finer than its real grid
 * at high prices). Size grows linearly with depth, so a large market order
 * walks several levels and slips.
 */
export function syntheticBook(
  rules: BookRules,
  mark: Decimal,
  options: SyntheticBookOptions = {},
): SimBook {
  const levels = options.levels ?? 10
  const levelUsd = dec(options.levelUsd ?? 20_000)
  const tick = dec(rules.tickSize)
  const byTicks = tick.mul(3)
  const byBps = mark.mul('0.00005')
  const spacing = byBps.gt(byTicks) ? byBps : byTicks
  const bids: SimLevel[] = []
  const asks: SimLevel[] = []
  for (let i = 1; i <= levels; i++) {
    const raw = floorToStep(levelUsd.mul(i).div(mark), rules.sizeStep)
    const size = raw.isZero() ? dec(rules.sizeStep).mul(i) : raw
    asks.push({
      price: roundPrice(rules, mark.add(spacing.mul(i)), 'up'),
      size,
    })
    const bid = roundPrice(rules, mark.sub(spacing.mul(i)), 'down')
    // a deep bid of a cheap market must stay a positive price
    if (bid.gt(0)) bids.push({ price: bid, size })
  }
  return { bids, asks }
}
