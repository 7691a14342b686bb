import type { Logger } from '../logger.js'
import type { DnMetrics } from './createDnMetrics.js'

/**
 * Wraps the fetch a venue adapter sends through: each call's latency and
 * status go to the metrics, and a failed one (no answer, 4xx, 5xx) to one
 * log line with the venue, method, endpoint (the path only: a query may
 * carry a signature) and status or error code. The venues package needs
 * nothing for it: `fetchFn` is already its seam.
 */
export function meteredFetch(
  venue: string,
  o: {
    readonly metrics?: DnMetrics | undefined
    readonly logger: Logger
    readonly fetchFn?: typeof globalThis.fetch
  },
): typeof globalThis.fetch {
  // looked up per call: a test's fetch mock may be installed later
  const inner: typeof globalThis.fetch =
    o.fetchFn ?? ((input, init) => globalThis.fetch(input, init))
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input))
    const endpoint = url.pathname
    const method = init?.method ?? 'GET'
    const started = performance.now()
    let res: Response
    try {
      res = await inner(input, init)
    } catch (err) {
      o.metrics?.venueCall(
        venue,
        endpoint,
        'error',
        performance.now() - started,
      )
      o.logger.warn?.('venue call failed', {
        venue,
        method,
        endpoint,
        error: errorCode(err),
      })
      throw err
    }
    o.metrics?.venueCall(
      venue,
      endpoint,
      res.status,
      performance.now() - started,
    )
    if (res.status >= 400) {
      o.logger.warn?.('venue call failed', {
        venue,
        method,
        endpoint,
        status: res.status,
      })
    }
    return res
  }
}

/** A network error's code (ECONNREFUSED, UND_ERR_…), or its name. */
function errorCode(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown } } | null)?.cause
  if (typeof cause?.code === 'string') return cause.code
  return err instanceof Error ? err.name : 'Error'
}
