/** An error answer from the service: `status` and its stable `code`. */
export class DnApiError extends Error {
  override name = 'DnApiError'
  readonly status: number
  readonly code: string
  readonly body: unknown
  readonly requestId: string | null

  constructor(status: number, body: unknown, requestId: string | null) {
    const b = (body ?? {}) as { error?: unknown; code?: unknown }
    super(typeof b.error === 'string' ? b.error : `HTTP ${status}`)
    this.status = status
    this.code = typeof b.code === 'string' ? b.code : 'http_error'
    this.body = body
    this.requestId = requestId
  }
}

/** A wait helper gave up before the resource reached a wanted state. */
export class DnTimeoutError extends Error {
  override name = 'DnTimeoutError'
  readonly code = 'wait_timeout'
}
