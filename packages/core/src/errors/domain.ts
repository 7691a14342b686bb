import { AppError, type AppErrorOptions } from './appError.js'
import type { ErrorCodeOf } from './errorCodes.js'

/** 400: a field, query, header or JSON body is invalid. */
export class ValidationError extends AppError {
  override name = 'ValidationError'
  readonly issues: readonly { path: string; message: string }[]
  constructor(
    message: string,
    issues: readonly { path: string; message: string }[] = [],
    code: ErrorCodeOf<400> = 'invalid_request',
  ) {
    super(code, message, { details: { issues } })
    this.issues = issues
  }
}

/** 400 with a named business rule (below a venue minimum, off tick...). */
export class RuleViolationError extends AppError {
  override name = 'RuleViolationError'
  constructor(
    code: ErrorCodeOf<400>,
    message: string,
    options?: AppErrorOptions,
  ) {
    super(code, message, options)
  }
}

/** 401: missing, malformed, unknown or revoked credentials. */
export class UnauthorizedError extends AppError {
  override name = 'UnauthorizedError'
  constructor(
    code: ErrorCodeOf<401> = 'unauthorized',
    message = 'missing, invalid or revoked API key',
  ) {
    super(code, message)
  }
}

/** 403: authenticated, but not allowed to touch this venue or account. */
export class ForbiddenError extends AppError {
  override name = 'ForbiddenError'
  constructor(
    code: ErrorCodeOf<403>,
    message: string,
    options?: AppErrorOptions,
  ) {
    super(code, message, options)
  }
}

/** 404: resource or route not found, or not visible to the caller. */
export class NotFoundError extends AppError {
  override name = 'NotFoundError'
  constructor(code: ErrorCodeOf<404>, message: string) {
    super(code, message)
  }
}

/** 409: the resource is in a state that does not allow the command. */
export class ConflictError extends AppError {
  override name = 'ConflictError'
  constructor(
    code: ErrorCodeOf<409>,
    message: string,
    options?: AppErrorOptions,
  ) {
    super(code, message, options)
  }
}

/** 429: a rate budget is exhausted; `retryAfterSeconds` is at least 1. */
export class RateLimitedError extends AppError {
  override name = 'RateLimitedError'
  readonly retryAfterSeconds: number
  constructor(retryAfterSeconds: number, message = 'rate limit exceeded') {
    super('rate_limited', message)
    this.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterSeconds))
  }
}

/** 503: storage, market data or a worker feature is unavailable. */
export class UnavailableError extends AppError {
  override name = 'UnavailableError'
  constructor(
    code: ErrorCodeOf<503>,
    message: string,
    options?: AppErrorOptions,
  ) {
    super(code, message, options)
  }
}
