import {
  type AppError,
  type DnErrorCode,
  errorBody,
  isAppError,
  RateLimitedError,
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
  if (err instanceof RateLimitedError) {
    headers['retry-after'] = String(err.retryAfterSeconds)
  }
  if (err.status === 413) headers.connection = 'close'
  return {
    status: err.status,
    code: err.code,
    body: errorBody(err),
    headers,
  }
}
