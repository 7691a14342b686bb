import { AppError, type AppErrorOptions } from './appError.js'

/** Root of errors raised by venue adapters. */
export class VenueError extends AppError {
  override name = 'VenueError'
}

/**
 * The request never reached the venue (connection refused, DNS, outage
 * before sending): nothing was placed, so a retry with the same client
 * order id is safe.
 */
export class VenueUnavailableError extends VenueError {
  override name = 'VenueUnavailableError'
  constructor(message: string, options?: AppErrorOptions) {
    super('venue_unavailable', message, options)
  }
}

/**
 * Not sent: the venue's request budget (its published rate limits, or a
 * back-off it asked for) has no room for it in time. Retried later.
 */
export class RequestBudgetError extends VenueUnavailableError {
  override name = 'RequestBudgetError'
  /** ms until the budget has room for it; undefined when never */
  readonly retryAfterMs: number | undefined
  constructor(
    message: string,
    options?: AppErrorOptions & { retryAfterMs?: number | undefined },
  ) {
    super(message, options)
    this.retryAfterMs = options?.retryAfterMs
  }
}

/** The venue answered and refused the request; nothing was placed. */
export class VenueRejectedError extends VenueError {
  override name = 'VenueRejectedError'
  /** the venue's own reason, kept for `venueStatus` / `error` */
  readonly reason: string
  constructor(reason: string, options?: AppErrorOptions) {
    super('venue_rejected', `venue rejected the request: ${reason}`, options)
    this.reason = reason
  }
}

/**
 * The request may have reached the venue but no answer came back (timeout,
 * reset after sending, 5xx after accepting). The order may exist: look it
 * up by client order id, never place a replacement.
 */
export class UncertainSubmissionError extends VenueError {
  override name = 'UncertainSubmissionError'
  constructor(message: string, options?: AppErrorOptions) {
    super('uncertain_submission', message, options)
  }
}

/** The account does not exist on the venue (no faucet / deposit yet). */
export class VenueAccountNotFoundError extends VenueError {
  override name = 'VenueAccountNotFoundError'
  constructor(message: string, options?: AppErrorOptions) {
    super('venue_account_not_found', message, options)
  }
}
