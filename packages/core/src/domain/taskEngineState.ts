import type { CloseSettlement } from './closeSettlement.js'
import type { LegBook } from './legBook.js'
import type { PendingReason } from './pendingReason.js'
import type { OrderSide } from './perpOrder.js'

export type Leg = 'long' | 'short'

/**
 * One venue order of a task operation. Persisted (with its deterministic
 * client order id) before it is sent, so a worker that dies mid-send leaves
 * an order to look up, never one to guess about.
 */
export interface LegOrder {
  readonly clientOrderId: string
  readonly side: OrderSide
  readonly size: string
  readonly price: string
  readonly reduceOnly: boolean
  /** `sending`: committed, maybe sent; `done`: outcome known */
  readonly state: 'sending' | 'done'
  readonly filledBase: string
  readonly averagePrice: string | null
  /** the venue refused it or it filled nothing */
  readonly failed: string | null
  /**
   * While `sending`: the signed deadline of the last send (ISO), after
   * which the venue refuses it; null when nothing is in flight. Absent in
   * states saved before deadlines existed (the operation start counts).
   */
  readonly sendBy?: string | null
  /**
   * Once done: the builder fee its fills paid, at the rate the adapter
   * attached (`VenueAdapter.builderFeeRate`) × the filled notional
   */
  readonly builderFeeUsd?: string | undefined
  /** the venue's id of the order, once it answered with one */
  readonly venueOrderId?: string | null | undefined
  /**
   * Once done with fills: the venue trading fee they paid, USD, from the
   * order answer or the venue's fill history (`VenueAdapter.orderFees`);
   * null when it could not be read. Absent until looked for.
   */
  readonly venueFeeUsd?: string | null | undefined
  /** the venue refused it (not merely filled nothing) */
  readonly refused?: boolean | undefined
}

export type TaskOperationKind = 'open' | 'close' | 'resize' | 'unwind'

export interface TaskOperation {
  readonly kind: TaskOperationKind
  /** rises per operation; part of every client order id */
  readonly seq: number
  readonly startedAt: string
  readonly legs: Readonly<Partial<Record<Leg, LegOrder>>>
}

/** The worker's private bookkeeping of a task, kept beside the task row. */
export interface TaskEngineState {
  /** operation in flight; null between operations */
  readonly op: TaskOperation | null
  /** last operation sequence used */
  readonly seq: number
  /** funding payments at or after this time are not yet counted */
  readonly fundingSince: string | null
  /** when the funding APY first fell under minFundingApy, if it still is */
  readonly fundingBelowSince: string | null
  /**
   * when funding payments are next read: just after the next settlement
   * of either leg's market, not on every monitor round
   */
  readonly fundingCheckAt?: string | null | undefined
  /**
   * the last monitor round found the task near a rule threshold: its
   * accounts are read more often and ahead of routine reads
   */
  readonly nearThreshold?: boolean | undefined
  /** while pending: why the last opening attempt did not open it */
  readonly pendingReason?: PendingReason | null | undefined
  /**
   * the pair's funding APY (percent, 2 decimals) from the latest quotes
   * the opening gate or the monitor read
   */
  readonly fundingApy?: string | null | undefined
  /** each leg's fills booked so far: entry, exit, realized PnL, fees */
  readonly books?: Readonly<Partial<Record<Leg, LegBook>>> | undefined
  /**
   * while an opening that filled one leg unwinds it: why the opening
   * failed (`open failed: short leg: …`), for the task's final error
   */
  readonly openFailure?: string | undefined
  /**
   * closes in a row a venue refused: at CLOSE_REFUSALS_MAX the close
   * stops until the owner asks again
   */
  readonly closeRefusals?: number | undefined
  /**
   * closes in a row that left a leg open (refused or unfilled): each next
   * one waits twice as long (`closeRetryMs`), so it is not sent every second
   */
  readonly closeFailures?: number | undefined
  /**
   * once closed: the funding or close fees its close could not read,
   * still to be booked (`settleClosedTask`); absent or null when none
   */
  readonly settling?: CloseSettlement | null | undefined
  /**
   * base a leg's close or unwind left at the venue, booked nowhere (see
   * `LegExit.left`): part of its account market's net that no holder
   * accounts for
   */
  readonly leftAtVenue?: Readonly<Partial<Record<Leg, string>>> | undefined
}

export const EMPTY_ENGINE_STATE: TaskEngineState = Object.freeze({
  op: null,
  seq: 0,
  fundingSince: null,
  fundingBelowSince: null,
})

/**
 * Refusals in a row after which a close stops: the venue refused the same
 * order that often (margin, a halted or delisted market, a minimum), and
 * sending it again will not change its answer.
 */
export const CLOSE_REFUSALS_MAX = 5

/** A closing task whose close stopped on refusals, until the owner asks again. */
export function closeStopped(state: TaskEngineState | null): boolean {
  return (
    (state?.op ?? null) === null &&
    (state?.closeRefusals ?? 0) >= CLOSE_REFUSALS_MAX
  )
}
