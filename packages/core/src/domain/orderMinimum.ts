import type { MarketRules } from '../ports/marketData.js'
import { type DecimalInput, dec } from '../util/decimal.js'

/** Smallest order the service opens on any venue, in USD. */
const MIN_ORDER_USD = '10'

/**
 * The smallest notional dn sends to open or grow a position on a venue:
 * the venue's own minimum, never below dn's floor.
 * @example orderMinimumUsd({ minNotionalUsd: '5', … }) // '10'
 */
export function orderMinimumUsd(rules: Pick<MarketRules, 'minNotionalUsd'>) {
  return dec(rules.minNotionalUsd).gt(MIN_ORDER_USD)
    ? rules.minNotionalUsd
    : MIN_ORDER_USD
}

/**
 * Whether a venue refuses `base` at `price` as an order of its own (below
 * its minimum base or notional). dn's floor aside: a close below it is
 * still one the venue takes.
 */
export function belowVenueMinimum(
  rules: Pick<MarketRules, 'minBase' | 'minNotionalUsd'>,
  base: DecimalInput,
  price: DecimalInput,
): boolean {
  const size = dec(base)
  return size.lt(rules.minBase) || size.mul(price).lt(rules.minNotionalUsd)
}
