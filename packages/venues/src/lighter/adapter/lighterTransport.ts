import { UncertainSubmissionError, VenueUnavailableError } from '@dn/core'
import { failedBeforeSending, isTimeout } from '../../wire/fetchFailure.js'
import {
  isLighterRateLimit,
  LIGHTER_CODES,
  LighterRejectedError,
} from './lighterRejectedError.js'

/** `read`: nothing changes on the venue; `write`: a tx may be accepted. */
export type LighterCallKind = 'read' | 'write'

export interface LighterTransportOptions {
  readonly baseUrl: string
  readonly fetchFn: typeof globalThis.fetch
  /** ms before a request is abandoned */
  readonly timeout: number
  /** retries after a rate limit (429, codes 23000..23003) */
  readonly rateLimitRetries: number
  /** first back-off delay in ms; doubles per retry */
  readonly retryDelayMs: number
}

export interface LighterTransport {
  /** `GET /api/v1/<path>?<query>`, with `Authorization` when given. */
  get(
    path: string,
    query: Readonly<Record<string, string | number>>,
    auth?: string,
  ): Promise<Record<string, unknown>>
  /** `POST /api/v1/sendTx` with the form fields `tx_type`, `tx_info`. */
  sendTx(txType: number, txInfo: string): Promise<Record<string, unknown>>
}

/**
 * The HTTP layer of the Lighter adapter, with the port's error classes.
 * A `{code, message}` refusal (HTTP 400, or a 200 whose code is not 200)
 * is a LighterRejectedError: nothing happened. Rate limits back off and
 * retry, then fail VenueUnavailableError (not accepted). Everything else
 * that goes wrong after the request left (timeout, reset, 5xx, a body
 * that is not JSON) is VenueUnavailableError for reads and
 * UncertainSubmissionError for `sendTx`: the tx may have been accepted.
 *
 * @example
 * const t = createLighterTransport({ baseUrl, fetchFn: fetch,
 *   timeout: 10_000, rateLimitRetries: 2, retryDelayMs: 250 })
 */
export function createLighterTransport(
  options: LighterTransportOptions,
): LighterTransport {
  const base = `${options.baseUrl.replace(/\/+$/, '')}/api/v1/`

  async function call(
    what: string,
    kind: LighterCallKind,
    init: () => { url: string; init: RequestInit },
  ): Promise<Record<string, unknown>> {
    for (let attempt = 0; ; attempt++) {
      const answer = await once(what, kind, init())
      if (answer !== 'rate_limited') return answer
      if (attempt >= options.rateLimitRetries) {
        throw new VenueUnavailableError(`lighter ${what}: rate limited`)
      }
      await new Promise((r) =>
        setTimeout(r, options.retryDelayMs * 2 ** attempt),
      )
    }
  }

  async function once(
    what: string,
    kind: LighterCallKind,
    req: { url: string; init: RequestInit },
  ): Promise<Record<string, unknown> | 'rate_limited'> {
    const uncertain = (msg: string, cause?: unknown) =>
      kind === 'write'
        ? new UncertainSubmissionError(`lighter ${what}: ${msg}`, { cause })
        : new VenueUnavailableError(`lighter ${what}: ${msg}`, { cause })
    let res: Response
    try {
      res = await options.fetchFn(req.url, {
        ...req.init,
        signal: AbortSignal.timeout(options.timeout),
      })
    } catch (err) {
      if (failedBeforeSending(err)) {
        throw new VenueUnavailableError(`lighter ${what}: not reachable`, {
          cause: err,
        })
      }
      throw uncertain(
        isTimeout(err) ? 'timed out' : 'request failed after sending',
        err,
      )
    }
    if (res.status === 429) return 'rate_limited'
    if (res.status >= 500) throw uncertain(`HTTP ${res.status}`)
    let text: string
    try {
      text = await res.text()
    } catch (err) {
      throw uncertain('answer cut off', err)
    }
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch (err) {
      if (res.ok) throw uncertain(`answer is not JSON: ${text.slice(0, 200)}`)
      throw new VenueUnavailableError(
        `lighter ${what}: HTTP ${res.status} ${text.slice(0, 200)}`,
        { cause: err },
      )
    }
    const obj =
      body && typeof body === 'object' && !Array.isArray(body)
        ? (body as Record<string, unknown>)
        : {}
    const code = typeof obj.code === 'number' ? obj.code : undefined
    if (code !== undefined && isLighterRateLimit(code)) return 'rate_limited'
    if (res.ok && (code === undefined || code === LIGHTER_CODES.ok)) return obj
    if (code !== undefined && res.status === 400) {
      throw new LighterRejectedError(code, String(obj.message ?? 'refused'))
    }
    if (res.ok) {
      throw new LighterRejectedError(code ?? 0, String(obj.message ?? ''))
    }
    throw new VenueUnavailableError(
      `lighter ${what}: HTTP ${res.status} ${text.slice(0, 200)}`,
    )
  }

  const transport: LighterTransport = {
    get: (path, query, auth) =>
      call(path, 'read', () => {
        const qs = new URLSearchParams(
          Object.entries(query).map(([k, v]): [string, string] => [
            k,
            String(v),
          ]),
        ).toString()
        const headers: Record<string, string> = auth
          ? { authorization: auth }
          : {}
        return {
          url: `${base}${path}${qs ? `?${qs}` : ''}`,
          init: { method: 'GET', headers },
        }
      }),
    sendTx: (txType, txInfo) =>
      call('sendTx', 'write', () => ({
        url: `${base}sendTx`,
        init: {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            tx_type: String(txType),
            tx_info: txInfo,
          }).toString(),
        },
      })),
  }
  return Object.freeze(transport)
}
