import { Decimal, dec, decString } from '@dn/core'

/**
 * An order size on Hyperliquid's lot: truncated toward zero to `szDecimals`
 * decimals, as a wire string (no exponent, no trailing zeros).
 * @param size non-negative size (string or Decimal; never a JS float)
 * @param szDecimals the asset's `szDecimals` from `meta`
 * @returns the wire size; `'0'` when the size is below one lot
 * @throws RangeError on a negative or non-finite size or bad szDecimals
 * @example formatHlSize('0.01479', 4) // '0.0147'
 */
export function formatHlSize(
  size: string | Decimal,
  szDecimals: number,
): string {
  requireDecimals('szDecimals', szDecimals)
  const d = dec(size)
  if (!d.isFinite() || d.isNegative()) {
    throw new RangeError(`size must be a non-negative decimal: ${String(size)}`)
  }
  return decString(d.toDecimalPlaces(szDecimals, Decimal.ROUND_DOWN))
}

/** @internal */
export function requireDecimals(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0 || value > 30) {
    throw new RangeError(`${name} must be an integer 0..30: ${value}`)
  }
}
