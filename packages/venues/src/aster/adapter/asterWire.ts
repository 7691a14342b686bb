import {
  dec,
  type VenueOrder,
  type VenueOrderState,
  type VenuePosition,
  type VenueUnavailableError,
} from '@dn/core'
import { decField, isObj, unexpectedAnswer } from '../../wire/jsonFields.js'

export { decField, isObj }

/** An unreadable answer to a read. */
export function badRead(what: string, raw: unknown): VenueUnavailableError {
  return unexpectedAnswer('aster', what, raw)
}

const STATES: Record<string, VenueOrderState> = {
  NEW: 'open',
  PARTIALLY_FILLED: 'partially_filled',
  FILLED: 'filled',
  CANCELED: 'cancelled',
  EXPIRED: 'expired',
  REJECTED: 'rejected',
}

/**
 * An Aster order object (place RESULT, query, cancel) in port terms, under
 * our client order id. @returns null when it is not an order object
 */
export function parseAsterOrder(
  raw: unknown,
  clientOrderId: string,
): VenueOrder | null {
  if (!isObj(raw) || typeof raw.status !== 'string') return null
  const state = STATES[raw.status]
  const size = decField(raw.origQty)
  const filled = decField(raw.executedQty)
  if (!state || size === null || filled === null) return null
  const avg = decField(raw.avgPrice)
  const hasFill = !dec(filled).isZero()
  return {
    clientOrderId,
    venueOrderId:
      typeof raw.orderId === 'number' || typeof raw.orderId === 'string'
        ? String(raw.orderId)
        : null,
    state,
    size,
    filledBase: filled,
    averagePrice: hasFill && avg !== null && avg !== '0' ? avg : null,
    venueStatus: raw.status,
    reason:
      state === 'cancelled' || state === 'rejected' || state === 'expired'
        ? raw.status
        : null,
  }
}

/** One `positionRisk` row; null for a flat (zero) position. */
export function parseAsterPosition(row: unknown): VenuePosition | null {
  if (!isObj(row) || typeof row.symbol !== 'string') {
    throw badRead('positionRisk', row)
  }
  const size = decField(row.positionAmt)
  const entry = decField(row.entryPrice)
  const mark = decField(row.markPrice)
  const lev = decField(row.leverage)
  const mode = row.marginType
  if (
    size === null ||
    entry === null ||
    mark === null ||
    lev === null ||
    (mode !== 'cross' && mode !== 'isolated')
  ) {
    throw badRead('positionRisk', row)
  }
  if (dec(size).isZero()) return null
  const liq = decField(row.liquidationPrice)
  return {
    market: row.symbol,
    size,
    entryPrice: entry,
    markPrice: mark,
    leverage: lev,
    marginMode: mode,
    // Aster writes "0" when there is no liquidation price
    liquidationPrice: liq === null || liq === '0' ? null : liq,
  }
}

/** One `income` row: time (ms), symbol and amount. */
export function parseIncomeRow(row: unknown): {
  time: number
  symbol: string
  income: string
} {
  const income = isObj(row) ? decField(row.income) : null
  if (
    !isObj(row) ||
    !Number.isSafeInteger(row.time) ||
    typeof row.symbol !== 'string' ||
    income === null
  ) {
    throw badRead('income', row)
  }
  return { time: row.time as number, symbol: row.symbol, income }
}
