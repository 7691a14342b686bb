import type { MarketRules } from '../ports/marketData.js'
import {
  Decimal,
  type DecimalInput,
  dec,
  isMultipleOf,
} from '../util/decimal.js'

type PriceRules = Pick<MarketRules, 'tickSize' | 'maxSigFigs'>

function sigFigs(d: Decimal): number {
  return d.isZero() ? 0 : d.precision(true)
}

/** True when `price` is on the venue's price grid. */
export function isValidPrice(rules: PriceRules, price: DecimalInput): boolean {
  const p = dec(price)
  if (p.lte(0) || !isMultipleOf(p, rules.tickSize)) return false
  if (rules.maxSigFigs === null || p.isInteger()) return true
  return sigFigs(p) <= rules.maxSigFigs
}

/**
 * Rounds a price onto the venue grid, `down` or `up` (toward the side that
 * protects the trader: down for a sell's floor, up for a buy's cap).
 */
export function roundPrice(
  rules: PriceRules,
  price: DecimalInput,
  mode: 'down' | 'up',
): Decimal {
  const rounding = mode === 'down' ? Decimal.ROUND_FLOOR : Decimal.ROUND_CEIL
  const tick = dec(rules.tickSize)
  let p = dec(price).div(tick).toDecimalPlaces(0, rounding).mul(tick)
  if (
    rules.maxSigFigs !== null &&
    !p.isInteger() &&
    sigFigs(p) > rules.maxSigFigs
  ) {
    // two valid candidates: fewer significant figures, or an integer
    const bySig = p.toSignificantDigits(rules.maxSigFigs, rounding)
    const whole = p.toDecimalPlaces(0, rounding)
    p =
      mode === 'up'
        ? bySig.lt(whole)
          ? bySig
          : whole
        : bySig.gt(whole)
          ? bySig
          : whole
  }
  return p
}
