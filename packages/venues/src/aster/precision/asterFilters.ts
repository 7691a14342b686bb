/** PRICE_FILTER / LOT_SIZE bounds as Aster publishes them (decimal strings). */
export interface AsterPriceFilter {
  readonly minPrice: string
  readonly maxPrice: string
  readonly tickSize: string
}
export interface AsterLotFilter {
  readonly minQty: string
  readonly maxQty: string
  readonly stepSize: string
}

/** The order filters of one `exchangeInfo` symbol (aster.md §6). */
export interface AsterFilters {
  readonly symbol: string
  /** decimals allowed in a price / quantity; null when not published */
  readonly pricePrecision: number | null
  readonly quantityPrecision: number | null
  readonly price: AsterPriceFilter
  /** LOT_SIZE: limit orders */
  readonly lot: AsterLotFilter
  /** MARKET_LOT_SIZE: market orders; null when not published */
  readonly marketLot: AsterLotFilter | null
  /** MIN_NOTIONAL `notional`; null when not published */
  readonly minNotional: string | null
  readonly percentPrice: {
    readonly multiplierUp: string
    readonly multiplierDown: string
  } | null
}

type Json = Record<string, unknown>
const DECIMAL = /^\d+(\.\d+)?$/

const isObj = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

function decimal(o: Json, key: string): string | null {
  const v = o[key]
  const s = typeof v === 'number' ? String(v) : v
  return typeof s === 'string' && DECIMAL.test(s) ? s : null
}

function lot(f: Json | undefined): AsterLotFilter | null {
  if (!f) return null
  const minQty = decimal(f, 'minQty')
  const maxQty = decimal(f, 'maxQty')
  const stepSize = decimal(f, 'stepSize')
  return minQty && maxQty && stepSize ? { minQty, maxQty, stepSize } : null
}

/**
 * Reads the filters of one `GET /fapi/v3/exchangeInfo` symbol.
 * @returns null when the symbol lacks a usable PRICE_FILTER or LOT_SIZE
 */
export function parseAsterFilters(raw: unknown): AsterFilters | null {
  if (!isObj(raw) || typeof raw.symbol !== 'string') return null
  const filters = Array.isArray(raw.filters) ? raw.filters.filter(isObj) : []
  const byType = (t: string) => filters.find((f) => f.filterType === t)
  const pf = byType('PRICE_FILTER')
  const price = pf && {
    minPrice: decimal(pf, 'minPrice'),
    maxPrice: decimal(pf, 'maxPrice'),
    tickSize: decimal(pf, 'tickSize'),
  }
  const limitLot = lot(byType('LOT_SIZE'))
  if (
    !price?.minPrice ||
    !price.maxPrice ||
    !price.tickSize ||
    limitLot === null
  ) {
    return null
  }
  const mn = byType('MIN_NOTIONAL')
  const pp = byType('PERCENT_PRICE')
  const up = pp ? decimal(pp, 'multiplierUp') : null
  const down = pp ? decimal(pp, 'multiplierDown') : null
  const precision = (k: string) =>
    Number.isSafeInteger(raw[k]) && (raw[k] as number) >= 0
      ? (raw[k] as number)
      : null
  return {
    symbol: raw.symbol,
    pricePrecision: precision('pricePrecision'),
    quantityPrecision: precision('quantityPrecision'),
    price: {
      minPrice: price.minPrice,
      maxPrice: price.maxPrice,
      tickSize: price.tickSize,
    },
    lot: limitLot,
    marketLot: lot(byType('MARKET_LOT_SIZE')),
    minNotional: mn ? decimal(mn, 'notional') : null,
    percentPrice:
      up && down ? { multiplierUp: up, multiplierDown: down } : null,
  }
}
