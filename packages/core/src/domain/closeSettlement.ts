// the engine state's own names, not imported back from it
type Leg = 'long' | 'short'

/**
 * A close order whose venue trading fee its venue did not tell yet. The
 * order is what the venue's fill history is searched for, as
 * `VenueAdapter.orderFees` takes it (`VenueFilledOrder`).
 */
export interface OwedFee {
  readonly order: {
    readonly clientOrderId: string
    readonly venueOrderId: string | null
    readonly filledBase: string
    /** Unix ms at or before the order's first fill */
    readonly since: number
  }
  /**
   * the leg's fees were already unknown before this order (an earlier fee
   * not read): knowing this one does not make them known
   */
  readonly unknownBefore: boolean
}

/**
 * What a task's close could not read from its venues: the funding paid
 * since its last booked settlement (`fundingSince`), the close orders'
 * venue fees, or both. The task is closed (its orders are done) and the
 * worker reads them again later, claiming it while this is set.
 */
export interface CloseSettlement {
  /**
   * when the close completed (ISO): payments at or after it are not the
   * task's, and the retries end a bounded time after it
   */
  readonly closedAt: string
  /**
   * the leg sizes held before the close, which the funding still to book
   * was paid on; null once that funding is booked
   */
  readonly fundingOn: Readonly<Record<Leg, string | null>> | null
  /** each leg's close order whose fee is still to be read */
  readonly fees: Readonly<Partial<Record<Leg, OwedFee>>>
  /** reads tried so far, the one at the close included */
  readonly tries: number
}

/** Whether anything of the settlement is still to be read. */
export function closeSettlementOpen(s: CloseSettlement): boolean {
  return s.fundingOn !== null || Object.keys(s.fees).length > 0
}
