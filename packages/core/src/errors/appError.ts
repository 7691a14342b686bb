/**
 * Root of every error the service raises on purpose. `code` is stable and is
 * what clients branch on; `status` is the HTTP status the edge maps it to.
 */
export interface AppErrorOptions {
  cause?: unknown
  details?: Record<string, unknown>
}

export class AppError extends Error {
  override name = 'AppError'
  readonly code: string
  readonly status: number
  readonly details: Record<string, unknown> | undefined

  constructor(
    status: number,
    code: string,
    message: string,
    options: AppErrorOptions = {},
  ) {
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
