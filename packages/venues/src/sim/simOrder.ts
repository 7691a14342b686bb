import {
  type Decimal,
  dec,
  decString,
  type OrderSide,
  type TimeInForce,
  type VenueOrder,
  type VenueOrderState,
} from '@dn/core'
import type { SimOrderCause, VenueStyle } from './venueStyle.js'

/** One execution of an order, as a venue's fill history lists it. */
export interface SimFill {
  readonly qty: Decimal
  readonly price: Decimal
  /** Unix ms */
  readonly time: number
  /** unique per venue, increasing */
  readonly tradeId: number
  /** the trading fee charged, USD (micro-dollars) */
  readonly fee: Decimal
  /** it rested on the book (maker rate); false: it crossed (taker) */
  readonly maker: boolean
  /** PnL the fill realized on the position it shrank, USD; else 0 */
  readonly realizedPnl: Decimal
  /** the builder fee charged on top of `fee`, USD; absent: none named */
  readonly builderFee?: Decimal | undefined
}

/** An order as the simulated venue keeps it (mutable engine state). */
export interface SimOrder {
  readonly owner: string
  readonly market: string
  readonly side: OrderSide
  readonly price: Decimal
  readonly timeInForce: TimeInForce
  readonly reduceOnly: boolean
  readonly clientOrderId: string
  readonly venueOrderId: string
  /** decimals the average price is reported with */
  readonly priceDecimals: number
  /**
   * share of each fill's notional the owner pays a third party on top of
   * the venue's fee (Hyperliquid builder codes); absent: none
   */
  readonly builderFeeRate?: Decimal | undefined
  /** size accepted (a reduce-only order is capped to the position) */
  size: Decimal
  filled: Decimal
  /** sum of fill size times fill price, for the volume-weighted average */
  filledNotional: Decimal
  /** every execution, oldest first */
  readonly fills: SimFill[]
  state: VenueOrderState
  venueStatus: string
  reason: string | null
}

/** True while the order rests on the book. */
export function isLive(order: SimOrder): boolean {
  return order.state === 'open' || order.state === 'partially_filled'
}

/** Moves an order to `state`, with the venue's word for it. */
export function setOrderState(
  style: VenueStyle,
  order: SimOrder,
  state: VenueOrderState,
  cause?: SimOrderCause,
  reason: string | null = null,
): void {
  order.state = state
  order.venueStatus = style.status(state, cause)
  if (reason !== null) order.reason = reason
}

/** The port's read-only view of an order. */
export function orderView(order: SimOrder): VenueOrder {
  // a volume-weighted average of grid prices can have endless decimals;
  // venues report it rounded, six places finer than the tick
  const average = order.filled.isZero()
    ? null
    : decString(
        order.filledNotional
          .div(order.filled)
          .toDecimalPlaces(order.priceDecimals + 6),
      )
  return {
    clientOrderId: order.clientOrderId,
    venueOrderId: order.venueOrderId,
    state: order.state,
    size: decString(order.size),
    filledBase: decString(order.filled),
    averagePrice: average,
    feeUsd: decString(order.fills.reduce((sum, f) => sum.add(f.fee), dec(0))),
    venueStatus: order.venueStatus,
    reason: order.reason,
  }
}
