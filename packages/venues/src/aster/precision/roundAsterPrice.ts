import { Decimal, dec, decString } from '@dn/core'
import type { AsterPriceFilter } from './asterFilters.js'

/**
 * Rounds a price onto Aster's grid `minPrice + n × tickSize`, `down` (a
 * sell's floor) or `up` (a buy's cap). A zero tick leaves the price as is.
 * @returns the canonical decimal string
 * @example roundAsterPrice({ minPrice: '0.05', maxPrice: '0', tickSize: '0.1' }, '1.0', 'down') // '0.95'
 */
export function roundAsterPrice(
  f: AsterPriceFilter,
  price: string,
  mode: 'down' | 'up',
): string {
  const tick = dec(f.tickSize)
  if (tick.isZero()) return decString(price)
  const min = dec(f.minPrice)
  const steps = dec(price)
    .sub(min)
    .div(tick)
    .toDecimalPlaces(
      0,
      mode === 'down' ? Decimal.ROUND_FLOOR : Decimal.ROUND_CEIL,
    )
  return decString(min.add(steps.mul(tick)))
}
