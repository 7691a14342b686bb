import {
  UncertainSubmissionError,
  type VenueAdapter,
  type VenueId,
  VenueUnavailableError,
} from '@dn/core'
import { failedBeforeSending } from '../wire/fetchFailure.js'
import { fromWire, type SimRpcMethod, type SimRpcResponse } from './simRpc.js'

export interface SimRpcAdapterOptions {
  /** base URL of `dn up`'s simulated venues (`--sim-port`) */
  readonly baseUrl: string
  readonly venue: VenueId
  /** @default globalThis.fetch */
  readonly fetchFn?: typeof fetch
  /** per call, ms @default 5_000 */
  readonly timeout?: number
}

/**
 * A VenueAdapter for the simulated venues of another process. A call that
 * never connected is VenueUnavailableError (nothing was sent); a `place`
 * whose answer is lost after connecting is UncertainSubmissionError, as on
 * a real venue.
 */
export function createSimRpcAdapter(o: SimRpcAdapterOptions): VenueAdapter {
  const fetchFn = o.fetchFn ?? globalThis.fetch
  const url = `${o.baseUrl.replace(/\/$/, '')}/rpc`
  const call = async <T>(method: SimRpcMethod, args: unknown[]): Promise<T> => {
    let res: Response
    try {
      res = await fetchFn(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ venue: o.venue, method, args }),
        signal: AbortSignal.timeout(o.timeout ?? 5_000),
      })
    } catch (err) {
      if (failedBeforeSending(err) || method !== 'place') {
        throw new VenueUnavailableError(
          `${o.venue} sim unreachable: ${String(err)}`,
          { cause: err },
        )
      }
      throw new UncertainSubmissionError(
        `${o.venue} sim did not answer: ${String(err)}`,
        { cause: err },
      )
    }
    let body: SimRpcResponse
    try {
      body = (await res.json()) as SimRpcResponse
    } catch (err) {
      if (method === 'place') {
        throw new UncertainSubmissionError(`${o.venue} sim answer lost`, {
          cause: err,
        })
      }
      throw new VenueUnavailableError(`${o.venue} sim answer lost`, {
        cause: err,
      })
    }
    if (!res.ok && !('ok' in body)) {
      throw new VenueUnavailableError(
        `${o.venue} sim answered HTTP ${res.status}`,
      )
    }
    if (!body.ok) throw fromWire(body.error)
    return body.result as T
  }
  return {
    venue: o.venue,
    rules: async (symbol) => (await call('rules', [symbol])) ?? undefined,
    quote: (symbol) => call('quote', [symbol]),
    place: (cred, order) => call('place', [cred, order]),
    cancel: (cred, market, cloid) => call('cancel', [cred, market, cloid]),
    order: (cred, market, cloid) => call('order', [cred, market, cloid]),
    positions: (cred) => call('positions', [cred]),
    funding: (cred, market, since) => call('funding', [cred, market, since]),
  }
}
