import {
  lookupMayResend,
  type NotSeenEvent,
  type VenueOrderAttempt,
  type VenueOrderEvent,
} from '../domain/venueOrderMachine.js'
import {
  UncertainSubmissionError,
  VenueRejectedError,
  VenueUnavailableError,
} from '../errors/venue.js'
import type {
  LookupOptions,
  TimedVenueOrder,
  VenueAdapter,
  VenueCredential,
  VenueOrderRequest,
} from '../ports/venueAdapter.js'

/**
 * @module The only place core sends, looks up or cancels an order at a
 * venue (direct orders, task legs, operator resolves alike). Each venue
 * answer comes back as the `venueOrderMachine` event it is.
 */

/** One account's market at one venue. */
export interface VenueOrderIo {
  readonly adapter: VenueAdapter
  readonly cred: VenueCredential
  readonly market: string
}

/** How a send ended, as a machine event; `error` says why when not placed. */
type SubmitOutcome =
  | Extract<VenueOrderEvent, { type: 'placed' }>
  | Extract<VenueOrderEvent, { type: 'rejected' }>
  | (Extract<VenueOrderEvent, { type: 'notSent' }> & {
      readonly error: VenueUnavailableError
    })
  | (Extract<VenueOrderEvent, { type: 'uncertain' }> & {
      readonly error: unknown
    })

/**
 * Sends a committed order (the caller has saved its client order id and
 * deadline). An error the adapter does not classify counts as uncertain:
 * something may have gone out, so the order is looked up, never resent.
 * A refusal answered once the send's deadline (`validUntil`) had passed
 * on `now` is not the order's: the venue refused a request it got too
 * late (Lighter's "tx expired", Hyperliquid's "Action expired", whatever
 * else it said), nothing was done, and it goes again signed anew. A send
 * held up in transit past a short window had ended a task's opening as
 * failed (the venue-fault suite).
 */
export async function submitVenueOrder(
  io: VenueOrderIo,
  request: Omit<VenueOrderRequest, 'market'>,
  now: () => number,
): Promise<SubmitOutcome> {
  try {
    const order = await io.adapter.place(io.cred, {
      ...request,
      market: io.market,
    })
    return { type: 'placed', order }
  } catch (error) {
    if (
      error instanceof VenueRejectedError &&
      request.validUntil !== undefined &&
      now() >= request.validUntil
    ) {
      return {
        type: 'notSent',
        error: new VenueUnavailableError(
          `refused after its send window closed (${error.reason}); nothing was done`,
          { cause: error },
        ),
      }
    }
    if (error instanceof VenueRejectedError) {
      return { type: 'rejected', reason: error.reason }
    }
    if (error instanceof VenueUnavailableError) {
      return { type: 'notSent', error }
    }
    return { type: 'uncertain', error }
  }
}

/**
 * What a lookup found; `unreachable` when the venue could not be asked. A
 * `notSeen` carries the venue's clock at the answer, when the adapter
 * tells it: the caller adds its `now` to make the machine's event.
 */
type ReconcileOutcome =
  | Extract<VenueOrderEvent, { type: 'seen' }>
  | Omit<NotSeenEvent, 'now'>
  | {
      readonly type: 'unreachable'
      readonly error: VenueUnavailableError | UncertainSubmissionError
    }

/**
 * Looks an order up by client order id (timed by the venue's clock where
 * the adapter tells it); with `cancel`, cancels it first (the venue
 * resolves a cancel of an order already final too).
 * @throws what the adapter throws beyond an outage
 */
export async function reconcileVenueOrder(
  io: VenueOrderIo,
  clientOrderId: string,
  options: {
    readonly cancel?: boolean | undefined
    /**
     * the order's attempt as the caller reads it now: a lookup that may
     * send it again goes with an order's priority (`lookupMayResend`)
     */
    readonly attempt?: VenueOrderAttempt | undefined
    readonly now?: number | undefined
  } = {},
): Promise<ReconcileOutcome> {
  let found: TimedVenueOrder
  const { attempt, now } = options
  const lookup: LookupOptions = {
    priority:
      attempt &&
      now !== undefined &&
      lookupMayResend(attempt, now, io.adapter.visibilityLagMs)
        ? 'order'
        : undefined,
  }
  try {
    if (options.cancel) {
      await io.adapter.cancel(io.cred, io.market, clientOrderId)
    }
    found = io.adapter.orderWithVenueTime
      ? await io.adapter.orderWithVenueTime(
          io.cred,
          io.market,
          clientOrderId,
          lookup,
        )
      : {
          order: await io.adapter.order(
            io.cred,
            io.market,
            clientOrderId,
            lookup,
          ),
          venueTimeAtLeast: null,
        }
  } catch (error) {
    if (
      error instanceof VenueUnavailableError ||
      error instanceof UncertainSubmissionError
    ) {
      return { type: 'unreachable', error }
    }
    throw error
  }
  if (found.order !== null) return { type: 'seen', order: found.order }
  if (found.venueTimeAtLeast === null) return { type: 'notSeen' }
  return {
    type: 'notSeen',
    venueTimeAtLeast: found.venueTimeAtLeast,
    ...(io.adapter.visibilityLagMs === undefined
      ? {}
      : { visibilityLagMs: io.adapter.visibilityLagMs }),
  }
}
