import {
  type Clock,
  UncertainSubmissionError,
  VenueRejectedError,
  VenueUnavailableError,
} from '@dn/core'
import { failedBeforeSending, isTimeout } from '../../wire/fetchFailure.js'
import { AsterRejectedError } from './asterRejectedError.js'

/** `read`: nothing changes on the venue; `write`: an order may be placed. */
export type AsterCallKind = 'read' | 'write'

export interface AsterRequest {
  readonly method: 'GET' | 'POST' | 'DELETE'
  /** e.g. `/fapi/v3/order` */
  readonly path: string
  /** the exact encoded parameter string (signed requests: with signature) */
  readonly params: string
  readonly kind: AsterCallKind
}

export type AsterSend = (request: AsterRequest) => Promise<unknown>

export interface AsterTransportOptions {
  readonly baseUrl: string
  readonly fetchFn: typeof globalThis.fetch
  /** ms before a request is abandoned */
  readonly timeout: number
  readonly clock: Clock
  /** REQUEST_WEIGHT per minute (exchangeInfo `rateLimits`) @default 2400 */
  readonly weightLimit?: number | undefined
}

/** Aster codes meaning "sent, execution status unknown". */
const UNKNOWN_CODES = new Set([-1006, -1007])
const MINUTE = 60_000

/**
 * The HTTP layer of the Aster adapter, with the venue port's error classes:
 * - refused before sending, or while backing off → VenueUnavailableError;
 * - 429 / 418 / -1003 → VenueUnavailableError and no request until
 *   `Retry-After` (default 60 s / 120 s) has passed; a used weight
 *   (`X-MBX-USED-WEIGHT-1m`) at the limit holds requests to the next minute;
 * - timeout, reset, 5xx, -1006/-1007 or an unreadable answer: a write is
 *   UncertainSubmissionError (503 means "status unknown", never resent),
 *   a read VenueUnavailableError;
 * - `{"code": <negative>, "msg"}` → AsterRejectedError (the venue's msg).
 * GET sends the string as the query; POST and DELETE as a form body.
 * @example const send = createAsterTransport({ baseUrl, fetchFn: fetch, timeout: 10_000, clock })
 */
export function createAsterTransport(o: AsterTransportOptions): AsterSend {
  const base = o.baseUrl.replace(/\/+$/, '')
  const limit = o.weightLimit ?? 2400
  let blockedUntil = 0

  const holdOff = (ms: number) => {
    blockedUntil = Math.max(blockedUntil, o.clock.now() + ms)
  }

  return async (req) => {
    const what = `aster ${req.method} ${req.path}`
    const uncertain = (msg: string, cause?: unknown) =>
      req.kind === 'write'
        ? new UncertainSubmissionError(`${what}: ${msg}`, { cause })
        : new VenueUnavailableError(`${what}: ${msg}`, { cause })
    const waitMs = blockedUntil - o.clock.now()
    if (waitMs > 0) {
      throw new VenueUnavailableError(
        `${what}: backing off rate limits for ${Math.ceil(waitMs / 1000)} s`,
      )
    }
    const get = req.method === 'GET'
    let res: Response
    try {
      res = await o.fetchFn(
        get && req.params
          ? `${base}${req.path}?${req.params}`
          : `${base}${req.path}`,
        {
          method: req.method,
          headers: get
            ? {}
            : { 'content-type': 'application/x-www-form-urlencoded' },
          ...(get ? {} : { body: req.params }),
          signal: AbortSignal.timeout(o.timeout),
        },
      )
    } catch (err) {
      if (failedBeforeSending(err)) {
        throw new VenueUnavailableError(`${what}: not reachable`, {
          cause: err,
        })
      }
      throw uncertain(
        isTimeout(err) ? 'timed out' : 'failed after sending',
        err,
      )
    }
    const used = Number(res.headers.get('x-mbx-used-weight-1m'))
    if (Number.isFinite(used) && used >= limit) {
      holdOff(MINUTE - (o.clock.now() % MINUTE))
    }
    if (res.status === 429 || res.status === 418) {
      const retry = Number(res.headers.get('retry-after'))
      holdOff(
        Number.isFinite(retry) && retry > 0
          ? retry * 1000
          : res.status === 418
            ? 2 * MINUTE
            : MINUTE,
      )
      throw new VenueUnavailableError(`${what}: rate limited (${res.status})`)
    }
    let text: string
    try {
      text = await res.text()
    } catch (err) {
      throw uncertain('answer cut off', err)
    }
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      body = undefined
    }
    const code = errorCode(body)
    if (code === -1003) {
      holdOff(MINUTE)
      throw new VenueUnavailableError(`${what}: too many requests (-1003)`)
    }
    if (res.status >= 500 || (code !== null && UNKNOWN_CODES.has(code))) {
      throw uncertain(`HTTP ${res.status} ${text.slice(0, 200)}`.trim())
    }
    if (code !== null) {
      throw new AsterRejectedError(code, errorMsg(body) ?? `code ${code}`)
    }
    if (!res.ok) {
      if (req.kind === 'write') {
        throw new VenueRejectedError(
          `HTTP ${res.status}: ${text.slice(0, 200)}`,
        )
      }
      throw new VenueUnavailableError(`${what}: HTTP ${res.status}`)
    }
    if (body === undefined) {
      throw uncertain(`answer is not JSON: ${text.slice(0, 200)}`)
    }
    return body
  }
}

function errorCode(body: unknown): number | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return null
  }
  const code = (body as { code?: unknown }).code
  return typeof code === 'number' && code < 0 ? code : null
}

function errorMsg(body: unknown): string | null {
  const msg = (body as { msg?: unknown }).msg
  return typeof msg === 'string' ? msg : null
}
