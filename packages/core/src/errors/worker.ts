import { AppError } from './appError.js'

/**
 * A write carrying our fencing token matched no row: another worker holds
 * the lease now. Stop at once, make no venue call.
 */
export class FencedOutError extends AppError {
  override name = 'FencedOutError'
  constructor(what: string) {
    super(
      409,
      'fenced_out',
      `lease on ${what} was taken over by another worker`,
    )
  }
}

/** The owner's binding for a venue is missing or unusable. */
export class CredentialUnavailableError extends AppError {
  override name = 'CredentialUnavailableError'
  constructor(message: string) {
    super(409, 'venue_not_bound', message)
  }
}
