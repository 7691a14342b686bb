import { type Decimal, dec } from '@dn/core'
import type { AsterFilters, AsterLotFilter } from './asterFilters.js'

/** An order as the filters see it. */
export interface AsterOrderCheck {
  readonly side: 'BUY' | 'SELL'
  readonly type: 'LIMIT' | 'MARKET'
  /** required for LIMIT; ignored for MARKET */
  readonly price: string | null
  readonly quantity: string
  /** for PERCENT_PRICE and a MARKET order's notional */
  readonly markPrice: string
  /** MIN_NOTIONAL is waived for reduce-only orders */
  readonly reduceOnly: boolean
}

/** Aster's error answer for a filter breach. */
export interface AsterFilterError {
  readonly code: number
  readonly msg: string
}

const fail = (code: number, msg: string): AsterFilterError => ({ code, msg })

function places(d: Decimal): number {
  return d.decimalPlaces()
}

/** `(v − min) % step == 0`; a zero step disables the rule. */
function onGrid(v: Decimal, min: string, step: string): boolean {
  const s = dec(step)
  return s.isZero() || v.sub(dec(min)).mod(s).isZero()
}

function checkLot(q: Decimal, f: AsterLotFilter): AsterFilterError | null {
  if (q.lt(dec(f.minQty)))
    return fail(-4004, 'Quantity less than min quantity.')
  if (!dec(f.maxQty).isZero() && q.gt(dec(f.maxQty))) {
    return fail(-4005, 'Quantity greater than max quantity.')
  }
  if (!onGrid(q, f.minQty, f.stepSize)) {
    return fail(-4023, 'Qty not increased by step size.')
  }
  return null
}

/**
 * Applies Aster's symbol filters as documented (aster.md §6) and returns
 * the first breach with the venue's code, or null when the order passes:
 * precision (-1111), PRICE_FILTER `price ≥ minPrice`, `≤ maxPrice`,
 * `(price − minPrice) % tickSize == 0` (each disabled by a zero), LOT_SIZE
 * (MARKET_LOT_SIZE for market orders) the same on quantity, PERCENT_PRICE
 * `BUY price ≤ mark × up`, `SELL price ≥ mark × down`, and MIN_NOTIONAL
 * `price × qty ≥ notional` (mark price for MARKET; waived when reduce-only).
 * @throws on inputs that are not decimals
 */
export function checkAsterOrder(
  f: AsterFilters,
  o: AsterOrderCheck,
): AsterFilterError | null {
  const q = dec(o.quantity)
  const limit = o.type === 'LIMIT'
  if (limit && o.price === null) {
    return fail(
      -1102,
      "Mandatory parameter 'price' was not sent, was empty/null, or malformed.",
    )
  }
  const p = limit ? dec(o.price as string) : null
  if (
    (p && f.pricePrecision !== null && places(p) > f.pricePrecision) ||
    (f.quantityPrecision !== null && places(q) > f.quantityPrecision)
  ) {
    return fail(-1111, 'Precision is over the maximum defined for this asset.')
  }
  if (q.lte(0)) return fail(-4003, 'Quantity less than zero.')
  if (p) {
    if (p.lte(0)) return fail(-4001, 'Price less than 0.')
    const { minPrice, maxPrice, tickSize } = f.price
    if (!dec(minPrice).isZero() && p.lt(dec(minPrice))) {
      return fail(-4013, 'Price less than min price.')
    }
    if (!dec(maxPrice).isZero() && p.gt(dec(maxPrice))) {
      return fail(-4002, 'Price greater than max price.')
    }
    if (!onGrid(p, minPrice, tickSize)) {
      return fail(-4014, 'Price not increased by tick size.')
    }
  }
  const lotBreach = checkLot(q, limit ? f.lot : (f.marketLot ?? f.lot))
  if (lotBreach) return lotBreach
  const mark = dec(o.markPrice)
  if (p && f.percentPrice) {
    if (o.side === 'BUY' && p.gt(mark.mul(dec(f.percentPrice.multiplierUp)))) {
      return fail(-4016, 'Price is higher than mark price multiplier cap.')
    }
    if (
      o.side === 'SELL' &&
      p.lt(mark.mul(dec(f.percentPrice.multiplierDown)))
    ) {
      return fail(-4024, 'Price is lower than mark price multiplier floor.')
    }
  }
  if (f.minNotional !== null && !o.reduceOnly) {
    if ((p ?? mark).mul(q).lt(dec(f.minNotional))) {
      return fail(
        -4164,
        `Order's notional must be no smaller than ${f.minNotional} (unless you choose reduce only)`,
      )
    }
  }
  return null
}
