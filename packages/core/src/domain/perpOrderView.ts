import type { PerpOrder } from '../schemas/perpOrder.js'
import type { PerpOrderRecord } from './perpOrder.js'

/** The contract's PerpOrder resource; its type comes from the response schema. */
export type PerpOrderView = PerpOrder

export function perpOrderView(o: PerpOrderRecord): PerpOrderView {
  return {
    orderId: o.id,
    venue: o.venue,
    market: o.market,
    side: o.side,
    orderType: o.orderType,
    sizeBase: o.sizeBase,
    limitPrice: o.limitPrice,
    timeInForce: o.timeInForce,
    slippageBps: o.slippageBps,
    reduceOnly: o.reduceOnly,
    status: o.status,
    requestedBase: o.requestedBase,
    filledBase: o.filledBase,
    averagePrice: o.averagePrice,
    clientOrderId: o.clientOrderId,
    venueStatus: o.venueStatus,
    error: o.error,
    cancelRequestedAt: o.cancelRequestedAt,
    submittedAt: o.submittedAt,
    observedAt: o.observedAt,
    expiresAt: o.expiresAt,
    createdAt: o.createdAt,
    updatedAt: o.updatedAt,
    resolution: o.resolution,
  }
}
