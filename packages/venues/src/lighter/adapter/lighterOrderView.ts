import { dec, decString, type VenueOrder, type VenueOrderState } from '@dn/core'
import { badAnswer, decField, isObj } from './lighterWireValue.js'

/**
 * Lighter's order JSON (`accountOrders`, `accountActiveOrders`) in port
 * terms. Statuses are Lighter's words (OpenAPI `Order.status`).
 *
 * @module
 */

/**
 * Cancels that mean the order was never allowed (the sequencer refused
 * it after the API accepted the tx): with nothing filled they are rejects.
 */
const REFUSALS = new Set([
  'canceled-post-only',
  'canceled-reduce-only',
  'canceled-position-not-allowed',
  'canceled-margin-not-allowed',
  'canceled-invalid-balance',
  'canceled-self-trade',
])

/** Lighter's order status word in port terms. */
function lighterOrderState(status: string, filled: boolean): VenueOrderState {
  if (status === 'open' || status === 'pending' || status === 'in-progress') {
    return filled ? 'partially_filled' : 'open'
  }
  if (status === 'filled') return 'filled'
  if (status === 'canceled-expired') return 'expired'
  if (REFUSALS.has(status) && !filled) return 'rejected'
  if (status.startsWith('canceled')) return 'cancelled'
  return 'rejected'
}

/** True once nothing can change the order any more. */
export function isFinalOrder(order: VenueOrder): boolean {
  return order.state !== 'open' && order.state !== 'partially_filled'
}

/**
 * One Lighter order as a VenueOrder carrying the service's id.
 *
 * @throws {VenueUnavailableError} on an order of the wrong shape.
 */
export function lighterOrderView(
  raw: unknown,
  clientOrderId: string,
): VenueOrder {
  if (!isObj(raw) || typeof raw.status !== 'string') {
    throw badAnswer('order', raw)
  }
  const size = decField(raw.initial_base_amount)
  const filledBase = decField(raw.filled_base_amount) ?? '0'
  const quote = decField(raw.filled_quote_amount)
  if (size === null) throw badAnswer('order', raw)
  const filled = dec(filledBase).gt(0)
  const state = lighterOrderState(raw.status, filled)
  const index = raw.order_index
  return {
    clientOrderId,
    venueOrderId:
      typeof index === 'number' || typeof index === 'string'
        ? String(index)
        : null,
    state,
    size,
    filledBase,
    averagePrice:
      filled && quote !== null
        ? decString(dec(quote).div(filledBase).toDecimalPlaces(12))
        : null,
    venueStatus: raw.status,
    reason: state === 'rejected' || state === 'cancelled' ? raw.status : null,
  }
}
