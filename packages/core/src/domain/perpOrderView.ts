import type { OrderResolution, PerpOrderRecord } from './perpOrder.js'

/** The contract's PerpOrder resource. */
export interface PerpOrderView {
  readonly orderId: string
  readonly venue: string
  readonly market: string
  readonly side: string
  readonly orderType: string
  readonly sizeBase: string
  readonly limitPrice: string | null
  readonly timeInForce: string
  readonly slippageBps: number
  readonly reduceOnly: boolean
  readonly status: string
  readonly requestedBase: string | null
  readonly filledBase: string
  readonly averagePrice: string | null
  readonly clientOrderId: string
  readonly venueStatus: string | null
  readonly error: string | null
  readonly cancelRequestedAt: string | null
  readonly submittedAt: string | null
  readonly observedAt: string | null
  readonly expiresAt: string
  readonly createdAt: string
  readonly updatedAt: string
  readonly resolution: OrderResolution | null
}

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
