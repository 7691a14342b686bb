import type { VenueOrder } from '../ports/venueAdapter.js'
import {
  DEFAULT_VISIBILITY_LAG_MS,
  NEVER_PLACED_AFTER_MS,
  SEND_WINDOW_MS,
} from './sendWindow.js'

/**
 * Where one order stands at its venue, whoever sent it (a direct order, a
 * task leg):
 * - `ready`: committed intent, nothing at the venue; it may be sent
 * - `sending`: the send is committed (its client order id saved) and its
 *   outcome not yet known
 * - `uncertain`: it may or may not have reached the venue; only a lookup
 *   by client order id can tell, never a second send
 * - `open`, `partially_filled`: resting at the venue
 * - `filled`, `cancelled`, `expired`, `rejected`: final
 */
export type VenueOrderAttemptStatus =
  | 'ready'
  | 'sending'
  | 'uncertain'
  | 'open'
  | 'partially_filled'
  | 'filled'
  | 'cancelled'
  | 'expired'
  | 'rejected'

/** One order's attempt at its venue; see `venueOrderMachine`. */
export interface VenueOrderAttempt {
  readonly status: VenueOrderAttemptStatus
  /**
   * Unix ms after which the venue refuses the last send (signed into it);
   * null when no send may be in flight
   */
  readonly sendBy: number | null
  /** the venue has shown the order at least once */
  readonly seen: boolean
  /** its owner asked for it to be cancelled */
  readonly cancelRequested: boolean
  /** its own deadline passed: cancelled at the venue, it ends `expired` */
  readonly expired: boolean
  /** the venue's last view of it, when it gave one */
  readonly venueOrder: VenueOrder | null
  /** why it was refused, when it was */
  readonly reason: string | null
}

export type VenueOrderEvent =
  /** the send is saved (with its client order id) before the venue call */
  | {
      readonly type: 'committed'
      readonly now: number
      /** the venue's send window @default SEND_WINDOW_MS */
      readonly windowMs?: number | undefined
    }
  /** the venue answered the send with the order */
  | { readonly type: 'placed'; readonly order: VenueOrder }
  /** refused: by the venue, or before sending (rules, key, credential) */
  | { readonly type: 'rejected'; readonly reason: string }
  /** nothing reached the venue: may go again with the same client order id */
  | { readonly type: 'notSent' }
  /** the send's outcome is unknown (or its sender died) */
  | { readonly type: 'uncertain' }
  /** a lookup by client order id found it */
  | { readonly type: 'seen'; readonly order: VenueOrder }
  /** a lookup by client order id did not find it */
  | NotSeenEvent
  | { readonly type: 'cancelRequested' }
  /** its own deadline passed */
  | { readonly type: 'expired' }

/** A lookup by client order id did not find the order. */
export interface NotSeenEvent {
  readonly type: 'notSeen'
  /** our clock when the lookup was made */
  readonly now: number
  /**
   * the venue's clock had at least reached this (Unix ms) when it
   * answered "no such order"; absent when the lookup did not say
   */
  readonly venueTimeAtLeast?: number | undefined
  /**
   * how long past a signed deadline, on its clock, the venue may still
   * not show an order it took by then @default DEFAULT_VISIBILITY_LAG_MS
   */
  readonly visibilityLagMs?: number | undefined
}

/** A new attempt, nothing sent. */
export const READY_ATTEMPT: VenueOrderAttempt = Object.freeze({
  status: 'ready',
  sendBy: null,
  seen: false,
  cancelRequested: false,
  expired: false,
  venueOrder: null,
  reason: null,
})

const FINAL: readonly VenueOrderAttemptStatus[] = [
  'filled',
  'cancelled',
  'expired',
  'rejected',
]

/** True once the attempt's outcome is known for good. */
export function isFinalAttempt(a: VenueOrderAttempt): boolean {
  return FINAL.includes(a.status)
}

/** True while the order rests at the venue. */
export function isLiveAttempt(a: VenueOrderAttempt): boolean {
  return a.status === 'open' || a.status === 'partially_filled'
}

/** May be at the venue, not known to be final. */
function maybeAtVenue(a: VenueOrderAttempt): boolean {
  return a.status === 'sending' || a.status === 'uncertain' || isLiveAttempt(a)
}

/**
 * The never-placed rule: an order never seen at its venue whose last send
 * can no longer land is not at the venue and never will be. A "not found"
 * proves it once the send's signed deadline (`sendBy`, which the venue
 * compares with its own clock) has passed with room for the venue to show
 * what it took before it:
 * - by our clock: past it by NEVER_PLACED_AFTER_MS − SEND_WINDOW_MS, room
 *   for clock skew too, as the venue's clock is not known;
 * - by the venue's: the answer was produced when the venue's clock was
 *   past `sendBy` plus its visibility lag. The venue refuses the send after
 *   `sendBy` on that clock, and shows what it took before within the lag,
 *   so no skew allowance is needed. Our clock must be past the same edge:
 *   a `Date` header running ahead of the venue (a proxy's) cannot alone
 *   make the proof.
 */
function neverPlaced(a: VenueOrderAttempt, e: NotSeenEvent): boolean {
  if (a.seen || a.sendBy === null) return false
  if (e.now > a.sendBy + NEVER_PLACED_AFTER_MS - SEND_WINDOW_MS) return true
  if (e.venueTimeAtLeast === undefined) return false
  const edge = a.sendBy + (e.visibilityLagMs ?? DEFAULT_VISIBILITY_LAG_MS)
  return e.venueTimeAtLeast > edge && e.now > edge
}

/**
 * When a lookup may next prove `a` never placed, after `e` did not: by
 * the venue's clock as `e` read it (its `Date` counts whole seconds, so the
 * first one past the edge is the next whole second, which the venue's
 * clock reaches at most that long after it answered), or else by ours.
 * @returns Unix ms on our clock, or null when no lookup can prove it (the
 * venue has shown it, or no send is in flight)
 */
export function neverPlacedProvableAt(
  a: VenueOrderAttempt,
  e: NotSeenEvent,
): number | null {
  if (a.seen || a.sendBy === null) return null
  const ours = a.sendBy + NEVER_PLACED_AFTER_MS - SEND_WINDOW_MS + 1
  if (e.venueTimeAtLeast === undefined) return ours
  const edge = a.sendBy + (e.visibilityLagMs ?? DEFAULT_VISIBILITY_LAG_MS)
  const venueIn = Math.floor(edge / 1000) * 1000 + 1000 - e.venueTimeAtLeast
  return Math.min(ours, Math.max(edge + 1, e.now + venueIn))
}

/**
 * True when a "not found" answered now may prove `a`'s last send never
 * placed (its signed deadline is past by the venue's visibility lag) and
 * the order would then go again: that lookup is part of sending it, and is
 * sent with an order's priority. Under a budget that reads had spent, such
 * lookups were refused until the order's deadline had passed, and orders
 * that had never reached the venue ended expired (the venue-fault suite).
 */
export function lookupMayResend(
  a: VenueOrderAttempt,
  now: number,
  visibilityLagMs: number = DEFAULT_VISIBILITY_LAG_MS,
): boolean {
  if (a.seen || a.sendBy === null || a.expired || a.cancelRequested) {
    return false
  }
  return now > a.sendBy + visibilityLagMs
}

/**
 * How near its never-placed edge a lookup of an unseen send waits for it
 * rather than go before it.
 */
export const EDGE_WAIT_MS = 3_000

/**
 * When a lookup of `a` due `now` had better wait for the first moment a
 * "not found" can prove its last send never placed: our clock and the
 * venue's (its `Date`, in whole seconds) past the send's signed deadline
 * plus the venue's visibility lag (`neverPlaced`). One sent before that
 * spends a request and a second or two of the order's queue deadline,
 * and the proof then waits for the next. A lookup due that near waits (at
 * most EDGE_WAIT_MS, the latency of finding a send the venue did take);
 * one due past the edge by our clock goes, as the venue's may be ahead.
 * In the venue-fault suite, a lookup claimed 0.6 s before the edge (its
 * worker busy) left the proof 6 s later, and the send that followed 60 ms
 * past the order's queue deadline.
 * @returns Unix ms to look up at instead, or null to look up now
 */
export function lookupAtEdge(
  a: VenueOrderAttempt,
  now: number,
  visibilityLagMs: number = DEFAULT_VISIBILITY_LAG_MS,
): number | null {
  if (a.seen || a.sendBy === null || a.status !== 'uncertain') return null
  const edge = a.sendBy + visibilityLagMs
  // past it by our clock, a venue clock ahead of ours may prove it now
  if (now > edge) return null
  // the first whole second past the edge, which a venue's Date can show
  const provable = Math.floor(edge / 1000) * 1000 + 1000
  return provable - now > EDGE_WAIT_MS ? null : provable
}

/** A live order its owner or its deadline wants gone: cancel it there. */
export function cancelDue(a: VenueOrderAttempt): boolean {
  return isLiveAttempt(a) && (a.cancelRequested || a.expired)
}

/** The attempt after the venue showed `v` (a send's answer or a lookup). */
function fromVenue(a: VenueOrderAttempt, v: VenueOrder): VenueOrderAttempt {
  // cancelled at the venue unasked past its own deadline (its dead-man
  // switch, an operator there): the worker would have cancelled it as expired
  const status =
    v.state === 'cancelled' && !a.cancelRequested && a.expired
      ? 'expired'
      : v.state
  return {
    ...a,
    status,
    seen: true,
    venueOrder: v,
    reason: v.state === 'rejected' ? v.reason : a.reason,
  }
}

/**
 * The life of one order at a venue: `(attempt, event) → attempt'`, or
 * null when the event is not allowed in the attempt's state. It holds the
 * at-most-once rule: after `committed`, only `notSent` (nothing reached the
 * venue) or a lookup proving the never-placed rule lets it be sent again,
 * with the same client order id.
 */
export function venueOrderMachine(
  a: VenueOrderAttempt,
  e: VenueOrderEvent,
): VenueOrderAttempt | null {
  switch (e.type) {
    case 'committed':
      return a.status === 'ready'
        ? {
            ...a,
            status: 'sending',
            sendBy: e.now + (e.windowMs ?? SEND_WINDOW_MS),
          }
        : null
    case 'placed':
      return a.status === 'sending' ? fromVenue(a, e.order) : null
    case 'rejected':
      return a.status === 'ready' || a.status === 'sending'
        ? { ...a, status: 'rejected', reason: e.reason }
        : null
    case 'notSent':
      return a.status === 'sending'
        ? { ...a, status: 'ready', sendBy: null }
        : null
    case 'uncertain':
      return a.status === 'sending' ? { ...a, status: 'uncertain' } : null
    case 'seen':
      return a.status === 'ready' || maybeAtVenue(a)
        ? fromVenue(a, e.order)
        : null
    case 'notSeen':
      return notSeen(a, e)
    case 'cancelRequested':
      if (a.status === 'ready') return { ...a, status: 'cancelled' }
      return maybeAtVenue(a) ? { ...a, cancelRequested: true } : null
    case 'expired':
      if (a.status === 'ready') return { ...a, status: 'expired' }
      return maybeAtVenue(a) ? { ...a, expired: true } : null
  }
}

function notSeen(
  a: VenueOrderAttempt,
  e: NotSeenEvent,
): VenueOrderAttempt | null {
  if (a.status === 'ready') return a
  if (isLiveAttempt(a)) {
    // it was there: "not found" can lag at venues, it is not "never placed"
    return { ...a, status: 'uncertain' }
  }
  if (a.status !== 'sending' && a.status !== 'uncertain') return null
  if (!neverPlaced(a, e)) return { ...a, status: 'uncertain' }
  // nothing is at the venue nor can arrive: what nobody wants any more
  // ends here, the rest may be sent again
  if (a.cancelRequested) return { ...a, status: 'cancelled', sendBy: null }
  if (a.expired) return { ...a, status: 'expired', sendBy: null }
  return { ...a, status: 'ready', sendBy: null }
}
