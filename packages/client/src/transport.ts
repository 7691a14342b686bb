import { randomUUID } from 'node:crypto'
import { DnApiError } from './errors/DnApiError.js'
import { DnNetworkError } from './errors/DnNetworkError.js'
import { DnProtocolError } from './errors/DnProtocolError.js'
import { networkReason } from './errors/networkReason.js'

export interface TransportOptions {
  readonly baseUrl: string
  readonly apiKey?: string | undefined
  /** @default globalThis.fetch */
  readonly fetchFn?: typeof fetch | undefined
  /** retries of uncertain results (network error, 503, 429) @default 3 */
  readonly retryCount?: number | undefined
  /** first backoff in ms, doubled per retry @default 200 */
  readonly retryDelay?: number | undefined
  /** per-attempt timeout in ms @default 10_000 */
  readonly timeout?: number | undefined
}

export interface RequestOptions {
  readonly body?: unknown
  readonly query?: Record<string, string | number | undefined>
  readonly headers?: Record<string, string>
  /** reuse a key to retry a command you are unsure about */
  readonly idempotencyKey?: string | undefined
  readonly signal?: AbortSignal | undefined
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * Sends one call. POSTs get an Idempotency-Key (generated unless given) that
 * every retry reuses, so a retried command is never run twice.
 */
export function createTransport(o: TransportOptions) {
  const config = Object.freeze({
    baseUrl: o.baseUrl.replace(/\/$/, ''),
    apiKey: o.apiKey,
    fetchFn: o.fetchFn ?? globalThis.fetch,
    retryCount: o.retryCount ?? 3,
    retryDelay: o.retryDelay ?? 200,
    timeout: o.timeout ?? 10_000,
  })
  return async function request<T>(
    method: 'GET' | 'POST',
    path: string,
    r: RequestOptions = {},
  ): Promise<T> {
    const url = new URL(config.baseUrl + path)
    for (const [k, v] of Object.entries(r.query ?? {}))
      if (v !== undefined) url.searchParams.set(k, String(v))
    const headers: Record<string, string> = { ...r.headers }
    if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`
    if (method === 'POST') {
      headers['content-type'] = 'application/json'
      headers['idempotency-key'] ??= r.idempotencyKey ?? randomUUID()
    }
    for (let attempt = 0; ; attempt++) {
      const signal = r.signal
        ? AbortSignal.any([r.signal, AbortSignal.timeout(config.timeout)])
        : AbortSignal.timeout(config.timeout)
      let res: Response
      let text: string
      try {
        res = await config.fetchFn(url, {
          method,
          headers,
          signal,
          ...(method === 'POST' ? { body: JSON.stringify(r.body ?? {}) } : {}),
        })
        // the body is read under the same timeout: a server that sends
        // headers and then stalls is as unreachable as one that never answers
        text = await res.text()
      } catch (err) {
        // the caller's own abort is not a failure of the service
        if (r.signal?.aborted) throw err
        if (attempt >= config.retryCount) {
          throw new DnNetworkError(
            {
              url: url.href,
              method,
              reason: networkReason(err),
              idempotencyKey: headers['idempotency-key'],
            },
            err,
          )
        }
        await sleep(config.retryDelay * 2 ** attempt)
        continue
      }
      const retryable = res.status === 429 || res.status === 503
      const last = !retryable || attempt >= config.retryCount
      const body = parseBody(res, text, last)
      if (body.ok && res.ok) return body.value as T
      if (last) {
        throw new DnApiError(
          res.status,
          body.ok ? body.value : undefined,
          res.headers.get('x-request-id'),
        )
      }
      const after = Number(res.headers.get('retry-after'))
      await sleep(after > 0 ? after * 1000 : config.retryDelay * 2 ** attempt)
    }
  }
}

/**
 * JSON, or a DnProtocolError when this answer is final. A retryable status
 * (a proxy's 503 page) is retried first whatever its body.
 */
function parseBody(
  res: Response,
  text: string,
  final: boolean,
): { ok: true; value: unknown } | { ok: false } {
  if (!text) return { ok: true, value: undefined }
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch (err) {
    if (!final) return { ok: false }
    throw new DnProtocolError(
      {
        status: res.status,
        contentType: res.headers.get('content-type'),
        body: text,
      },
      err,
    )
  }
}

export type Transport = ReturnType<typeof createTransport>
