import type { VenueId, VenueOrderState } from '@dn/core'

/** Why an order reached its state; picks the venue's exact status word. */
export type SimOrderCause =
  | 'user'
  | 'ioc'
  | 'reduce_only'
  | 'liquidation'
  /** the account's dead-man switch (a scheduled cancel-all) fired */
  | 'scheduled'

/** Reject reasons, worded the way each venue words them. */
export interface VenueReasons {
  readonly unknownMarket: string
  readonly tick: string
  readonly step: string
  readonly minNotional: (min: string) => string
  readonly minBase: (min: string) => string
  readonly margin: string
  readonly postOnly: (bid: string, ask: string) => string
  readonly reduceOnly: string
  readonly notFound: string
  readonly leverage: string
  readonly modeChange: string
  readonly duplicate: string
}

/**
 * A venue's trading fee rates (fractions of the filled notional) for an
 * account at its base tier: `taker` when the order crossed the book,
 * `maker` when it rested and was filled later.
 */
export interface VenueFeeRates {
  readonly taker: string
  readonly maker: string
}

/** How one venue names order states, words its rejects and charges fees. */
export interface VenueStyle {
  /** the state a remainder of an IOC ends in (Aster: expired) */
  readonly iocRemainder: VenueOrderState
  readonly fees: VenueFeeRates
  status(state: VenueOrderState, cause?: SimOrderCause): string
  readonly reasons: VenueReasons
}

const DUPLICATE = 'duplicate clientOrderId'

const hl: VenueStyle = {
  iocRemainder: 'cancelled',
  // perps tier 0: 0.045% taker, 0.015% maker (docs: trading/fees)
  fees: { taker: '0.00045', maker: '0.00015' },
  status: (state, cause) => {
    if (state === 'cancelled' && cause === 'reduce_only')
      return 'reduceOnlyCanceled'
    if (state === 'cancelled' && cause === 'liquidation')
      return 'liquidatedCanceled'
    // orderStatus names the dead-man switch's cancel (nktkas orderStatus)
    if (state === 'cancelled' && cause === 'scheduled') return 'scheduledCancel'
    return lowerWord(state)
  },
  reasons: {
    unknownMarket: 'Asset not found.',
    tick: 'Price must be divisible by tick size.',
    step: 'Order has invalid size.',
    minNotional: (min) => `Order must have minimum value of $${min}.`,
    minBase: () => 'Order has invalid size.',
    margin: 'Insufficient margin to place order.',
    postOnly: (bid, ask) =>
      `Post only order would have immediately matched, bbo was ${bid}@${ask}.`,
    reduceOnly: 'Reduce only order would increase position.',
    notFound: 'Order was never placed, already canceled, or filled.',
    leverage: 'Invalid leverage value.',
    modeChange: 'Cannot switch leverage type with open position.',
    duplicate: DUPLICATE,
  },
}

const ASTER_STATUS: Record<VenueOrderState, string> = {
  open: 'NEW',
  partially_filled: 'PARTIALLY_FILLED',
  filled: 'FILLED',
  cancelled: 'CANCELED',
  expired: 'EXPIRED',
  rejected: 'REJECTED',
}

const aster: VenueStyle = {
  iocRemainder: 'expired',
  // futures base tier: 0.035% taker, 0.01% maker (docs: fee structure)
  fees: { taker: '0.00035', maker: '0.0001' },
  status: (state) => ASTER_STATUS[state],
  reasons: {
    unknownMarket: 'Invalid symbol.',
    tick: 'Price not increased by tick size.',
    step: 'Quantity not increased by step size.',
    minNotional: (min) =>
      `Order's notional must be no smaller than ${min} (unless you choose reduce only).`,
    minBase: (min) => `Quantity less than minimum quantity ${min}.`,
    margin: 'Margin is insufficient.',
    postOnly: () =>
      'Due to the order could not be executed as maker, the Post Only order will be rejected.',
    reduceOnly: 'ReduceOnly Order is rejected.',
    notFound: 'Unknown order sent.',
    leverage: 'Leverage is not valid.',
    modeChange: 'Margin type cannot be changed if there exists position.',
    duplicate: DUPLICATE,
  },
}

const lighter: VenueStyle = {
  iocRemainder: 'cancelled',
  // a standard account trades without fees (docs: account types)
  fees: { taker: '0', maker: '0' },
  status: (state, cause) => {
    if (state === 'cancelled' && cause === 'reduce_only')
      return 'canceled-reduce-only'
    if (state === 'cancelled' && cause === 'liquidation')
      return 'canceled-liquidation'
    return lowerWord(state)
  },
  reasons: {
    unknownMarket: 'invalid market index',
    tick: 'invalid order price',
    step: 'invalid order base amount',
    minNotional: (min) => `order quote amount is below the minimum of ${min}`,
    minBase: (min) => `order base amount is below the minimum of ${min}`,
    margin: 'not enough margin to create the order',
    postOnly: () => 'post-only order would cross the book',
    reduceOnly: 'reduce-only order would increase position',
    notFound: 'order not found',
    leverage: 'invalid leverage',
    modeChange: 'cannot change margin mode with an open position',
    duplicate: DUPLICATE,
  },
}

// Hyperliquid and Lighter say `open` for a resting order even when part of
// it has filled, and spell cancelled with one l.
function lowerWord(state: VenueOrderState): string {
  if (state === 'partially_filled') return 'open'
  if (state === 'cancelled') return 'canceled'
  return state
}

/** The status words and reject wording of a simulated venue. */
export function venueStyle(venue: VenueId): VenueStyle {
  if (venue === 'hl') return hl
  if (venue === 'aster') return aster
  return lighter
}
