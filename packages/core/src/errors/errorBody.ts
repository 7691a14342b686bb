import { AppError } from './appError.js'
import type { DnErrorCode } from './errorCodes.js'

/** The `{error, code}` body every key-authenticated route answers with. */
interface ErrorBody {
  readonly error: string
  readonly code: DnErrorCode
  readonly [extra: string]: unknown
}

/** Maps an AppError to its wire body; details become extra properties. */
export function errorBody(err: AppError): ErrorBody {
  return { error: err.message, code: err.code, ...(err.details ?? {}) }
}

/** True for errors we raised on purpose (and may show to the caller). */
export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError
}
