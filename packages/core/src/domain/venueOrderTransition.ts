import { AppError } from '../errors/appError.js'
import {
  type VenueOrderAttempt,
  type VenueOrderEvent,
  venueOrderMachine,
} from './venueOrderMachine.js'

/** An event the venue-order machine does not allow: a bug, not an outcome. */
export class VenueOrderTransitionError extends AppError {
  static readonly code = 'venue_order_transition'
  override name = 'VenueOrderTransitionError'
  constructor(
    from: VenueOrderAttempt['status'],
    event: VenueOrderEvent['type'],
  ) {
    super(
      VenueOrderTransitionError.code,
      `a venue order ${from} cannot take the event ${event}`,
    )
  }
}

/**
 * `venueOrderMachine` for callers that only apply events it allows.
 * @throws {VenueOrderTransitionError} when it does not allow `event`
 */
export function venueOrderTransition(
  attempt: VenueOrderAttempt,
  event: VenueOrderEvent,
): VenueOrderAttempt {
  const next = venueOrderMachine(attempt, event)
  if (next === null)
    throw new VenueOrderTransitionError(attempt.status, event.type)
  return next
}
