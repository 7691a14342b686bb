import { AppError } from '../errors/appError.js'
import type { DnErrorCode } from '../errors/errorCodes.js'

/**
 * Errors of the binding routes. Their bodies are exactly `{code, error}`,
 * so these carry no details; the status comes from the code table.
 */
export class BindingRouteError extends AppError {
  override name = 'BindingRouteError'
  constructor(code: DnErrorCode, message: string, cause?: unknown) {
    super(code, message, cause === undefined ? {} : { cause })
  }
}
