import type { Lease } from './lease.js'
import type { VenueId } from './venue.js'

export type PerpOrderStatus =
  | 'pending'
  | 'submitting'
  | 'open'
  | 'partially_filled'
  | 'filled'
  | 'cancelled'
  | 'rejected'
  | 'expired'
  | 'unknown'

export const TERMINAL_ORDER_STATUSES: readonly PerpOrderStatus[] = [
  'filled',
  'cancelled',
  'rejected',
  'expired',
]

export type OrderSide = 'long' | 'short'
export type OrderType = 'market' | 'limit'
export type TimeInForce = 'ioc' | 'gtc' | 'post_only'

/** Operator reconciliation audit of an `unknown` order; stored forever. */
export interface OrderResolution {
  readonly status: 'filled' | 'cancelled' | 'expired' | 'rejected'
  readonly filledBase: string
  readonly averagePrice: string | null
  readonly evidence: string
  readonly confirmNoOpenOrder: true
  readonly confirmWorkersStopped: true
  readonly prior: {
    readonly status: PerpOrderStatus
    readonly filledBase: string
    readonly averagePrice: string | null
  }
  readonly actorKeyId: string
  readonly resolvedAt: string
}

export interface PerpOrderRecord extends Lease {
  readonly id: string
  readonly owner: string
  readonly apiKeyId: string
  readonly venue: VenueId
  readonly market: string
  readonly side: OrderSide
  readonly orderType: OrderType
  readonly sizeBase: string
  /** the limit price a client sent; null for market orders */
  readonly requestedLimitPrice: string | null
  /** limit price, or the protection price of a market order once computed */
  readonly limitPrice: string | null
  readonly timeInForce: TimeInForce
  readonly slippageBps: number
  readonly reduceOnly: boolean
  readonly status: PerpOrderStatus
  readonly requestedBase: string | null
  readonly filledBase: string
  readonly averagePrice: string | null
  readonly clientOrderId: string
  readonly venueOrderId: string | null
  readonly venueStatus: string | null
  readonly error: string | null
  readonly cancelRequestedAt: string | null
  readonly submittedAt: string | null
  /**
   * the last send's signed deadline (its commit plus its venue's send
   * window); null when none is in flight, or for a send committed before
   * it was kept (then `submittedAt` plus SEND_WINDOW_MS)
   */
  readonly sendBy: string | null
  readonly observedAt: string | null
  readonly expiresAt: string
  readonly createdAt: string
  readonly updatedAt: string
  readonly resolution: OrderResolution | null
}
