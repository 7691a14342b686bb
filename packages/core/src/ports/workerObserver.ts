import type { VenueId } from '../domain/venue.js'
import type { WorkKind } from './store.js'

/** A task, order or binding moved from one status to another. */
export interface WorkTransition {
  readonly type: 'transition'
  readonly kind: WorkKind
  /** the task, order or binding batch id */
  readonly id: string
  readonly from: string
  readonly to: string
  /** the venue it concerns, when one does (an order, a binding's venue) */
  readonly venue?: VenueId | undefined
  /** ms since the worker claimed the item in this step */
  readonly ms: number
  /** the stable code or short reason of a failure, when it ended in one */
  readonly error?: string | null | undefined
}

/**
 * A submission reached the venue (placed, refused or uncertain, not held
 * back before sending): how long after the API accepted it.
 */
export interface VenueSubmit {
  readonly type: 'venueSubmit'
  readonly kind: 'order' | 'task'
  readonly id: string
  readonly venue: VenueId
  /** from the order's or task's createdAt to the venue call */
  readonly acceptToVenueMs: number
}

/**
 * A lease taken over at the claim from a worker that did not give it back
 * (its lease expired, or its owner is fenced or silent). An order taken
 * over while `submitting` also shows as its `submitting → unknown`
 * transition.
 */
export interface LeaseSteal {
  readonly type: 'leaseSteal'
  readonly kind: WorkKind
  readonly id: string
  readonly reason: 'taken_over'
  /** the worker that held it */
  readonly from: string
}

/**
 * A due row claimed: how long it waited for a worker, from when it became
 * due (an order's or task's acceptance, or the retry time it was given).
 */
export interface WorkPickup {
  readonly type: 'pickup'
  readonly kind: WorkKind
  readonly id: string
  readonly waitedMs: number
}

/**
 * A task found its leg's venue position changed outside dn (a
 * liquidation, an auto-deleverage, a trade at the venue, venue state
 * lost): its account market's ledger could not explain the venue's net
 * (docs/positions.md).
 */
export interface ExternalChange {
  readonly type: 'externalChange'
  /** the task whose leg it took */
  readonly id: string
  readonly venue: VenueId
  readonly market: string
  /** the task's note, `external change: …` */
  readonly note: string
}

export type WorkerEvent =
  | WorkTransition
  | VenueSubmit
  | LeaseSteal
  | WorkPickup
  | ExternalChange

/**
 * Where the worker reports what it did, beside its log lines: the edge
 * turns events into metrics. Core knows no metrics library.
 */
export interface WorkerObserver {
  observe(event: WorkerEvent): void
}
