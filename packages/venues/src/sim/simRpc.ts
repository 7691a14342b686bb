import {
  isVenueId,
  UncertainSubmissionError,
  VenueAccountNotFoundError,
  type VenueAdapter,
  type VenueCredential,
  VenueError,
  type VenueId,
  type VenueOrderRequest,
  VenueRejectedError,
  VenueUnavailableError,
} from '@dn/core'

/**
 * A tiny RPC that lets worker processes share the simulated venues of one
 * `dn up` process: `POST /rpc {venue, method, args}` runs the paper
 * adapter's method there. Venue errors travel as data and are rebuilt as
 * the same classes on the client, so a worker behaves exactly as it would
 * in-process.
 */
export const SIM_RPC_METHODS = [
  'rules',
  'symbols',
  'quote',
  'place',
  'cancel',
  'order',
  'positions',
  'funding',
] as const
export type SimRpcMethod = (typeof SIM_RPC_METHODS)[number]

export interface SimRpcRequest {
  readonly venue: VenueId
  readonly method: SimRpcMethod
  readonly args: readonly unknown[]
}

export type SimRpcError = {
  readonly kind: 'rejected' | 'unavailable' | 'uncertain' | 'account_not_found'
  readonly message: string
  readonly reason?: string
}

export type SimRpcResponse =
  | { readonly ok: true; readonly result: unknown }
  | { readonly ok: false; readonly error: SimRpcError }

export function isSimRpcRequest(value: unknown): value is SimRpcRequest {
  if (typeof value !== 'object' || value === null) return false
  const r = value as Record<string, unknown>
  return (
    isVenueId(r.venue) &&
    typeof r.method === 'string' &&
    (SIM_RPC_METHODS as readonly string[]).includes(r.method) &&
    Array.isArray(r.args)
  )
}

/** Runs one call on the adapter; venue errors become data. */
export async function dispatchSimRpc(
  adapters: Readonly<Record<VenueId, VenueAdapter>>,
  req: SimRpcRequest,
): Promise<SimRpcResponse> {
  const a = adapters[req.venue]
  const [x, y, z] = req.args as [unknown, unknown, unknown]
  try {
    const result = await (async () => {
      switch (req.method) {
        case 'rules':
          return (await a.rules(String(x))) ?? null
        case 'symbols':
          return (await a.symbols?.()) ?? []
        case 'quote':
          return a.quote(String(x))
        case 'place':
          return a.place(x as VenueCredential, y as VenueOrderRequest)
        case 'cancel':
          await a.cancel(x as VenueCredential, String(y), String(z))
          return null
        case 'order':
          return a.order(x as VenueCredential, String(y), String(z))
        case 'positions':
          return a.positions(x as VenueCredential)
        case 'funding':
          return a.funding(x as VenueCredential, String(y), String(z))
      }
    })()
    return { ok: true, result }
  } catch (err) {
    if (!(err instanceof VenueError)) throw err
    return { ok: false, error: toWire(err) }
  }
}

function toWire(err: VenueError): SimRpcError {
  if (err instanceof VenueRejectedError) {
    return { kind: 'rejected', message: err.message, reason: err.reason }
  }
  if (err instanceof UncertainSubmissionError) {
    return { kind: 'uncertain', message: err.message }
  }
  if (err instanceof VenueAccountNotFoundError) {
    return { kind: 'account_not_found', message: err.message }
  }
  return { kind: 'unavailable', message: err.message }
}

/** Rebuilds the venue error a wire error stands for. */
export function fromWire(e: SimRpcError): VenueError {
  switch (e.kind) {
    case 'rejected':
      return new VenueRejectedError(e.reason ?? e.message)
    case 'uncertain':
      return new UncertainSubmissionError(e.message)
    case 'account_not_found':
      return new VenueAccountNotFoundError(e.message)
    default:
      return new VenueUnavailableError(e.message)
  }
}
