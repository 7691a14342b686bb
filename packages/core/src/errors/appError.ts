import { type DnErrorCode, ERROR_CODES } from './errorCodes.js'

/**
 * Root of every error the service raises on purpose. `code` is stable and is
 * what clients branch on; `status` is the HTTP status the edge maps it to,
 * taken from {@link ERROR_CODES} so no throw site writes an HTTP number.
 */
export interface AppErrorOptions {
  cause?: unknown
  details?: Record<string, unknown>
}

export class AppError extends Error {
  override name = 'AppError'
  readonly code: DnErrorCode
  readonly status: number
  readonly details: Record<string, unknown> | undefined

  constructor(
    code: DnErrorCode,
    message: string,
    options: AppErrorOptions = {},
  ) {
    const status = ERROR_CODES[code].status
    super(message, options.cause === undefined ? {} : { cause: options.cause })
    this.status = status
    this.code = code
    this.details = options.details
  }

  /** Walks the cause chain and returns the first error matching `fn`. */
  walk(fn: (err: unknown) => boolean): unknown {
    let err: unknown = this
    while (err instanceof Error) {
      if (fn(err)) return err
      err = err.cause
    }
    return undefined
  }
}
