import type { DnErrorCode } from '../generated/openapiTypes.js'
import { DnError } from './DnError.js'

/** An error answer from the service: `status` and its stable `code`. */
export class DnApiError extends DnError {
  override name = 'DnApiError'
  readonly status: number
  /**
   * The service's code; `http_error` when the body carried none (a proxy
   * answered). A newer service may send a code this client does not list.
   */
  readonly code: DnErrorCode | 'http_error'
  readonly body: unknown
  /** `X-Request-Id`, to find the call in the service's request log */
  readonly requestId: string | null

  constructor(status: number, body: unknown, requestId: string | null) {
    const b = (body ?? {}) as { error?: unknown; code?: unknown }
    super(typeof b.error === 'string' ? b.error : `HTTP ${status}`)
    this.status = status
    this.code =
      typeof b.code === 'string' ? (b.code as DnErrorCode) : 'http_error'
    this.body = body
    this.requestId = requestId
  }
}
