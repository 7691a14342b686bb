import { Decimal as DecimalJs } from 'decimal.js'

/**
 * Exact decimal arithmetic for money, prices and sizes. A private clone of
 * decimal.js so no other importer can change our precision or rounding.
 */
export const Decimal: typeof DecimalJs = DecimalJs.clone({
  precision: 60,
  rounding: DecimalJs.ROUND_HALF_EVEN,
  toExpNeg: -100,
  toExpPos: 100,
})
export type Decimal = DecimalJs

export type DecimalInput = string | number | DecimalJs

/**
 * Builds a Decimal. Numbers go through their shortest round-trip string
 * (`String(0.1) === '0.1'`), which is what the client wrote in its JSON.
 */
export function dec(value: DecimalInput): Decimal {
  return new Decimal(typeof value === 'number' ? String(value) : value)
}

const CANONICAL = /^-?(?:0|[1-9]\d*)(?:\.\d*[1-9])?$/

/** Canonical wire form: plain notation, no exponent, no trailing zeros. */
export function decString(value: DecimalInput): string {
  // already canonical (what the store and our own writes hold): as is,
  // without building a Decimal; short enough that no exponent applies
  if (
    typeof value === 'string' &&
    value.length <= 60 &&
    value !== '-0' &&
    CANONICAL.test(value)
  ) {
    return value
  }
  const d = dec(value)
  return d.isZero() ? '0' : d.toFixed()
}

/** Rounds `value` down (toward zero) to a multiple of `step`. */
export function floorToStep(value: DecimalInput, step: DecimalInput): Decimal {
  const s = dec(step)
  return dec(value).div(s).floor().mul(s)
}

/** True when `value` is an exact multiple of `step`. */
export function isMultipleOf(value: DecimalInput, step: DecimalInput): boolean {
  return dec(value).mod(dec(step)).isZero()
}
