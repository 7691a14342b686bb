import { AppError } from '../errors/appError.js'

/**
 * Errors of the binding routes. Their bodies are exactly `{code, error}`,
 * so these carry no details.
 */
export class BindingRouteError extends AppError {
  override name = 'BindingRouteError'
  constructor(status: number, code: string, message: string, cause?: unknown) {
    super(status, code, message, cause === undefined ? {} : { cause })
  }
}
