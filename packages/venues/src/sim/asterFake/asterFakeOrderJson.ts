import { dec, decString, type VenueOrder } from '@dn/core'
import { asOneOrder, engineIdOf } from './asterFakeEngineLegs.js'
import type { AsterFakeOrder, AsterFakeState } from './asterFakeState.js'

/**
 * The engine's view of an order, or, for a conditional order the engine
 * has not seen yet (waiting, cancelled or refused at its trigger), the
 * view its trigger state gives it: nothing filled. A modified order's
 * view joins its engine legs (`asterFakeEngineLegs.ts`).
 * @returns null when the engine lost it
 */
export function viewOf(
  state: AsterFakeState,
  o: AsterFakeOrder,
): VenueOrder | null {
  const t = state.triggers.get(o.orderId)
  if (t && t.status !== 'TRIGGERED') {
    return {
      clientOrderId: o.clientOrderId,
      venueOrderId: String(o.orderId),
      state:
        t.status === 'NEW'
          ? 'open'
          : t.status === 'CANCELED'
            ? 'cancelled'
            : 'expired',
      size: o.quantity ?? '0',
      filledBase: '0',
      averagePrice: null,
      venueStatus: t.status,
      reason: null,
    }
  }
  const leg = state.exchange.order(o.user, engineIdOf(o), o.symbol)
  return leg && asOneOrder(o, leg)
}

/**
 * The order object Aster answers for place, query, cancel and the order
 * lists (futures v3 doc "New Order", "Query Order"): `type` and
 * `origType` as posted, `stopPrice` '0' for plain orders.
 */
export function orderJson(o: AsterFakeOrder, v: VenueOrder, now: number) {
  const avg = v.averagePrice ?? '0'
  const t = Math.max(o.time, now)
  return {
    orderId: o.orderId,
    symbol: o.symbol,
    status: v.venueStatus,
    clientOrderId: o.clientOrderId,
    price: o.price,
    avgPrice: avg,
    origQty: v.size,
    executedQty: v.filledBase,
    cumQty: v.filledBase,
    cumQuote: decString(dec(v.filledBase).mul(avg)),
    timeInForce: o.timeInForce,
    type: o.type,
    origType: o.type,
    reduceOnly: o.reduceOnly,
    closePosition: false,
    side: o.side,
    positionSide: 'BOTH',
    stopPrice: o.stopPrice ?? '0',
    workingType: o.workingType ?? 'CONTRACT_PRICE',
    priceProtect: false,
    time: o.time,
    updateTime: t,
  }
}
