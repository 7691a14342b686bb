import { Decimal, dec, decString } from '@dn/core'
import { requireDecimals } from './formatHlSize.js'

/** Perps allow `6 − szDecimals` price decimals, spot `8 − szDecimals`. */
export type HlMarketKind = 'perp' | 'spot'

export interface FormatHlPriceOptions {
  /** @default 'perp' */
  readonly kind?: HlMarketKind | undefined
  /**
   * `'down'`: the largest valid price ≤ the input; `'up'`: the smallest
   * valid price ≥ it. @default 'down'
   */
  readonly rounding?: 'down' | 'up' | undefined
}

const MAX_SIG_FIGS = 5

/**
 * The most decimals a price may carry: `max(6 − szDecimals, 0)` for perps,
 * `max(8 − szDecimals, 0)` for spot.
 * @internal
 */
function hlMaxPriceDecimals(
  szDecimals: number,
  kind: HlMarketKind = 'perp',
): number {
  requireDecimals('szDecimals', szDecimals)
  return Math.max((kind === 'spot' ? 8 : 6) - szDecimals, 0)
}

/**
 * True when Hyperliquid accepts `price` on the tick: positive, at most
 * `hlMaxPriceDecimals` decimals, and at most 5 significant figures unless
 * it is an integer (integers are always allowed).
 * @param price the price (string or Decimal)
 * @param szDecimals the asset's `szDecimals`
 * @param kind perp or spot @default 'perp'
 * @returns whether the price is valid
 * @throws RangeError on bad szDecimals
 * @example isValidHlPrice('12345.6', 0) // false; '123456' → true
 */
export function isValidHlPrice(
  price: string | Decimal,
  szDecimals: number,
  kind: HlMarketKind = 'perp',
): boolean {
  const maxDecimals = hlMaxPriceDecimals(szDecimals, kind)
  let d: Decimal
  try {
    d = dec(price)
  } catch {
    return false
  }
  if (!d.isFinite() || !d.isPositive() || d.isZero()) return false
  if (d.decimalPlaces() > maxDecimals) return false
  return d.isInteger() || d.sd() <= MAX_SIG_FIGS
}

/**
 * Rounds a price onto Hyperliquid's tick and renders it for the wire: at
 * most 5 significant figures (integers always allowed) and at most
 * `6 − szDecimals` decimals (spot `8 − szDecimals`), no exponent, no
 * trailing zeros. Exact decimal arithmetic; never JS floats.
 * @param price positive price (string or Decimal)
 * @param szDecimals the asset's `szDecimals` from `meta`
 * @param options market kind and rounding direction
 * @returns the wire price, valid per {@link isValidHlPrice}
 * @throws RangeError on a non-positive price, bad szDecimals, or when
 * rounding down leaves no positive valid price
 * @example formatHlPrice('1670.123', 4) // '1670.1'
 */
export function formatHlPrice(
  price: string | Decimal,
  szDecimals: number,
  options: FormatHlPriceOptions = {},
): string {
  const maxDecimals = hlMaxPriceDecimals(szDecimals, options.kind)
  const up = options.rounding === 'up'
  const mode = up ? Decimal.ROUND_UP : Decimal.ROUND_DOWN
  const p = dec(price)
  if (!p.isFinite() || !p.isPositive() || p.isZero()) {
    throw new RangeError(`price must be positive: ${String(price)}`)
  }
  // nearest point of the decimal grid in the rounding direction
  const onGrid = p.toDecimalPlaces(maxDecimals, mode)
  let out = onGrid
  if (!onGrid.isInteger() && onGrid.sd() > MAX_SIG_FIGS) {
    // either the 5-significant-figure point or the integer, whichever is
    // nearer in the rounding direction
    const sig = onGrid.toSignificantDigits(MAX_SIG_FIGS, mode)
    const int = up ? onGrid.ceil() : onGrid.floor()
    out = up ? Decimal.min(sig, int) : Decimal.max(sig, int)
  }
  if (out.isZero()) {
    throw new RangeError(
      `price ${String(price)} is below the smallest tick (${maxDecimals} decimals)`,
    )
  }
  return decString(out)
}
