import {
  type AppError,
  type DnErrorCode,
  errorBody,
  isAppError,
  RateLimitedError,
  RequestBudgetError,
} from '@dn/core'
import type { Logger } from '../logger.js'
import type { HttpResponse } from './httpResponse.js'
import { RequestAbortedError } from './readJsonBody.js'

/**
 * The one place errors become HTTP. AppErrors keep their status and code;
 * anything else is logged with the request id and answered 503 without
 * internals, so the caller retries with the same Idempotency-Key.
 */
export function errorResponse(
  err: unknown,
  requestId: string,
  logger: Logger,
): HttpResponse & { code: DnErrorCode } {
  if (err instanceof RequestAbortedError) {
    logger.debug?.('client aborted the request', { requestId })
  }
  if (isAppError(err)) return fromAppError(err)
  logger.error('unhandled error', {
    requestId,
    error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
    stack: err instanceof Error ? err.stack : undefined,
  })
  return {
    status: 503,
    code: 'service_unavailable',
    body: {
      error:
        'the service could not complete the request; retry it with the same Idempotency-Key',
      code: 'service_unavailable',
      requestId,
    },
  }
}

function fromAppError(err: AppError): HttpResponse & { code: DnErrorCode } {
  const headers: Record<string, string> = {}
  const retryAfter =
    err instanceof RateLimitedError
      ? err.retryAfterSeconds
      : err.status === 503
        ? budgetRetryAfter(err)
        : undefined
  if (retryAfter !== undefined) headers['retry-after'] = String(retryAfter)
  if (err.status === 413) headers.connection = 'close'
  return {
    status: err.status,
    code: err.code,
    body: errorBody(err),
    headers,
  }
}

/**
 * Seconds until the venue budget that refused the request unsent has
 * room (from a RequestBudgetError in the cause chain), so a caller waits
 * that long instead of retrying into the same refusal.
 */
function budgetRetryAfter(err: AppError): number | undefined {
  const refusal = err.walk((e) => e instanceof RequestBudgetError)
  const ms =
    refusal instanceof RequestBudgetError ? refusal.retryAfterMs : undefined
  return ms === undefined ? undefined : Math.max(1, Math.ceil(ms / 1000))
}
