import {
  createRequestBudget,
  type VenueAdapter,
  type VenueId,
  VenueUnavailableError,
} from '@dn/core'
import { createVenueHttp, type VenueProtocol } from '../wire/venueHttp.js'
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

/** The simulator's RPC: every answer is `{ok, result}` or `{ok, error}`. */
const simProtocol: VenueProtocol<unknown> = {
  venue: 'sim',
  rateLimited: () => null,
  read(_req, answer, uncertain) {
    const body = answer.json as SimRpcResponse | undefined
    if (body === undefined) throw uncertain('answer lost')
    if (!(answer.status >= 200 && answer.status < 300) && !('ok' in body)) {
      throw new VenueUnavailableError(`sim answered HTTP ${answer.status}`)
    }
    if (!body.ok) throw fromWire(body.error)
    return body.result
  },
}

/**
 * A VenueAdapter for the simulated venues of another process, through the
 * same HTTP layer as the real venues. A call that never connected is
 * VenueUnavailableError (nothing was sent); a `place` whose answer is lost
 * after connecting is UncertainSubmissionError, as on a real venue. The
 * simulator publishes no rate limits: its budget has none.
 */
export function createSimRpcAdapter(o: SimRpcAdapterOptions): VenueAdapter {
  const send = createVenueHttp(simProtocol, {
    baseUrl: o.baseUrl,
    fetchFn: o.fetchFn ?? globalThis.fetch,
    timeout: o.timeout ?? 5_000,
    budget: createRequestBudget({ name: `${o.venue} sim`, limits: [] }),
  })
  const call = async <T>(method: SimRpcMethod, args: unknown[]): Promise<T> =>
    (await send({
      method: 'POST',
      path: '/rpc',
      body: {
        contentType: 'application/json',
        text: JSON.stringify({ venue: o.venue, method, args }),
      },
      kind: method === 'place' ? 'write' : 'read',
      priority: method === 'place' ? 'order' : 'routine',
      charges: [],
    })) as T
  return {
    venue: o.venue,
    rules: async (symbol) => (await call('rules', [symbol])) ?? undefined,
    symbols: () => call('symbols', []),
    quote: (symbol) => call('quote', [symbol]),
    place: (cred, order) => call('place', [cred, order]),
    cancel: (cred, market, cloid) => call('cancel', [cred, market, cloid]),
    order: (cred, market, cloid) => call('order', [cred, market, cloid]),
    positions: (cred) => call('positions', [cred]),
    funding: (cred, market, since) => call('funding', [cred, market, since]),
  }
}
