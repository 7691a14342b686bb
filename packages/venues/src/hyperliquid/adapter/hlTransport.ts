import {
  UncertainSubmissionError,
  VenueRejectedError,
  VenueUnavailableError,
} from '@dn/core'
import { failedBeforeSending, isTimeout } from '../../wire/fetchFailure.js'

/** `read`: nothing changes on the venue; `write`: an order may be placed. */
export type HlCallKind = 'read' | 'write'

export interface HlTransportOptions {
  readonly baseUrl: string
  readonly fetchFn: typeof globalThis.fetch
  /** ms before a request is abandoned */
  readonly timeout: number
}

/** Posts a JSON body to `/info` or `/exchange` and returns the parsed JSON. */
export type HlPost = (
  path: '/info' | '/exchange',
  body: unknown,
  kind: HlCallKind,
) => Promise<unknown>

/**
 * The HTTP layer of the Hyperliquid adapter, with the error classes of the
 * venue port: reads fail with VenueUnavailableError; writes fail with
 * VenueUnavailableError only when nothing was sent (refused connection,
 * 429), else UncertainSubmissionError (timeout, reset, 5xx, bad body).
 * A 4xx other than 429 on a write is a VenueRejectedError.
 * @param options base URL, fetch and timeout
 * @returns the post function
 * @example const post = createHlTransport({ baseUrl, fetchFn: fetch, timeout: 10_000 })
 */
export function createHlTransport(options: HlTransportOptions): HlPost {
  const base = options.baseUrl.replace(/\/+$/, '')
  return async (path, body, kind) => {
    const what = `hyperliquid ${path}`
    const uncertain = (msg: string, cause?: unknown) =>
      kind === 'write'
        ? new UncertainSubmissionError(`${what}: ${msg}`, { cause })
        : new VenueUnavailableError(`${what}: ${msg}`, { cause })
    let res: Response
    try {
      res = await options.fetchFn(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(options.timeout),
      })
    } catch (err) {
      if (failedBeforeSending(err)) {
        throw new VenueUnavailableError(`${what}: not reachable`, {
          cause: err,
        })
      }
      throw uncertain(
        isTimeout(err) ? 'timed out' : 'request failed after sending',
        err,
      )
    }
    if (res.status === 429) {
      throw new VenueUnavailableError(`${what}: rate limited (429)`)
    }
    if (res.status >= 500) {
      throw uncertain(`HTTP ${res.status}`)
    }
    if (!res.ok) {
      const text = await safeText(res)
      if (kind === 'write') {
        throw new VenueRejectedError(`HTTP ${res.status}: ${text}`.trim())
      }
      throw new VenueUnavailableError(`${what}: HTTP ${res.status} ${text}`)
    }
    let text: string
    try {
      text = await res.text()
    } catch (err) {
      throw uncertain(
        isTimeout(err) ? 'timed out reading the answer' : 'answer cut off',
        err,
      )
    }
    try {
      return JSON.parse(text) as unknown
    } catch (err) {
      throw uncertain(`answer is not JSON: ${text.slice(0, 200)}`, err)
    }
  }
}

async function safeText(res: Response): Promise<string> {
  try {
    return (await res.text()).slice(0, 500)
  } catch {
    return ''
  }
}
