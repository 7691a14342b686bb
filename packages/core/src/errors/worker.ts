import type { VenueId } from '../domain/venue.js'
import { AppError, type AppErrorOptions } from './appError.js'
import type { ErrorCodeOf } from './errorCodes.js'

/**
 * A write carrying our fencing token matched no row: another worker holds
 * the lease now. Stop at once, make no venue call.
 */
export class FencedOutError extends AppError {
  override name = 'FencedOutError'
  constructor(what: string) {
    super('fenced_out', `lease on ${what} was taken over by another worker`)
  }
}

/** The owner's binding for a venue is missing or unusable. */
export class CredentialUnavailableError extends AppError {
  override name = 'CredentialUnavailableError'
  constructor(
    message: string,
    code: ErrorCodeOf<409> = 'venue_not_bound',
    options?: AppErrorOptions,
  ) {
    super(code, message, options)
  }
}

/**
 * The stored credential of a binding does not decrypt (the row was altered,
 * or it was encrypted under another master key). Nothing can be sent with
 * it until the venue is bound again, which replaces it.
 */
export class CredentialUnreadableError extends CredentialUnavailableError {
  static readonly code = 'credential_unreadable'
  override name = 'CredentialUnreadableError'
  readonly venue: VenueId
  constructor(venue: VenueId, options?: AppErrorOptions) {
    super(
      `the stored ${venue} credential could not be read; rebind ${venue} (POST /v1/venue-bindings/prepare with rebind: true)`,
      CredentialUnreadableError.code,
      options,
    )
    this.venue = venue
  }
}
