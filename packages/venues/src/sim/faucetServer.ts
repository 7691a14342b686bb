import {
  createServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http'
import type { AddressInfo } from 'node:net'
import { isVenueId, type VenueId } from '@dn/core'
import { dispatchSimRpc, isSimRpcRequest } from './simRpc.js'
import type { SimVenues } from './simVenues.js'

export interface FaucetServerOptions {
  readonly venues: Pick<SimVenues, 'faucet' | 'adapters'>
  /** a loopback address only @default '127.0.0.1' */
  readonly host?: string
  /** 0 picks a free port @default 8081 */
  readonly port?: number
  /**
   * Where each venue's protocol fake listens, published at `GET /venues`
   * so separate worker processes speak the same protocols to the same
   * simulated venues
   */
  readonly protocolUrls?: Readonly<Partial<Record<VenueId, string>>>
  /**
   * How often each of those fakes' venues settles funding (ms), published
   * beside their URLs so a separate worker's adapters follow it too
   */
  readonly fundingIntervalMs?: Readonly<Partial<Record<VenueId, number>>>
}

export interface FaucetServer {
  readonly url: string
  readonly port: number
  close(): Promise<void>
}

const OWNER = /^0x[0-9a-fA-F]{40}$/
const MAX_BODY = 16 * 1024
const MAX_USD = 1e9
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1'])

/** A bad request, answered as `{error, code}` with its status. */
class FaucetHttpError extends Error {
  override name = 'FaucetHttpError'
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** the `Allow` header of a 405 */
    readonly allow?: string,
  ) {
    super(message)
  }
}

/**
 * The simulated venues' faucet over HTTP: `POST /faucet` with JSON
 * `{venue, owner, collateralUsd?}` creates (or tops up) the owner's account
 * and answers `{venue, owner, accountIndex}`; `POST /rpc` lets worker
 * processes trade on these same venues (see simRpc.ts); `GET /venues`
 * tells them where each venue's protocol fake listens. It hands out play
 * money, so it listens on loopback only.
 */
export async function startFaucetServer(
  options: FaucetServerOptions,
): Promise<FaucetServer> {
  const host = options.host ?? '127.0.0.1'
  if (!LOOPBACK.has(host) && !host.startsWith('127.')) {
    throw new RangeError(`the faucet binds loopback only, not ${host}`)
  }
  const server = createServer((req, res) => {
    handle(options, req)
      .then((body) => send(res, 200, body))
      .catch((err: unknown) => {
        const e =
          err instanceof FaucetHttpError
            ? err
            : new FaucetHttpError(500, 'internal', 'internal error')
        send(res, e.status, { error: e.message, code: e.code }, e.allow)
      })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 8081, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { port } = server.address() as AddressInfo
  const shown = host.includes(':') ? `[${host}]` : host
  return {
    url: `http://${shown}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()))
        server.closeAllConnections()
      }),
  }
}

async function handle(
  options: FaucetServerOptions,
  req: IncomingMessage,
): Promise<unknown> {
  const { venues } = options
  const path = (req.url ?? '/').split('?')[0]
  if (path === '/venues') {
    if (req.method !== 'GET') {
      throw new FaucetHttpError(405, 'method_not_allowed', 'use GET', 'GET')
    }
    return {
      protocolUrls: options.protocolUrls ?? {},
      fundingIntervalMs: options.fundingIntervalMs ?? {},
    }
  }
  if (path === '/rpc' && req.method === 'POST') {
    let rpc: unknown
    try {
      rpc = JSON.parse(await readBody(req))
    } catch {
      throw invalid('body is not valid JSON')
    }
    if (!isSimRpcRequest(rpc)) throw invalid('not a sim RPC request')
    return dispatchSimRpc(venues.adapters, rpc)
  }
  if (path !== '/faucet') {
    throw new FaucetHttpError(404, 'not_found', `no route ${path}`)
  }
  if (req.method !== 'POST') {
    throw new FaucetHttpError(405, 'method_not_allowed', 'use POST', 'POST')
  }
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim()
  if (type?.toLowerCase() !== 'application/json') {
    throw new FaucetHttpError(
      415,
      'unsupported_media_type',
      'send application/json',
    )
  }
  const input = parseInput(await readBody(req))
  const { accountIndex } =
    input.collateralUsd === undefined
      ? venues.faucet(input.venue, input.owner)
      : venues.faucet(input.venue, input.owner, input.collateralUsd)
  return { venue: input.venue, owner: input.owner, accountIndex }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  // drain the whole body even when too large, so the answer is not cut off
  // by a reset socket
  for await (const chunk of req) {
    const buf = chunk as Buffer
    size += buf.length
    if (size <= MAX_BODY) chunks.push(buf)
  }
  if (size > MAX_BODY) throw invalid('body is larger than 16 KiB')
  return Buffer.concat(chunks).toString('utf8')
}

interface FaucetInput {
  readonly venue: VenueId
  readonly owner: string
  readonly collateralUsd: number | undefined
}

function parseInput(text: string): FaucetInput {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw invalid('body is not valid JSON')
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalid('body must be a JSON object')
  }
  const { venue, owner, collateralUsd, ...rest } = body as Record<
    string,
    unknown
  >
  const extra = Object.keys(rest)
  if (extra.length > 0) throw invalid(`unknown field ${extra[0]}`)
  if (!isVenueId(venue)) throw invalid('venue is not a known venue id')
  if (typeof owner !== 'string' || !OWNER.test(owner)) {
    throw invalid('owner must be 0x and 40 hex digits')
  }
  if (
    collateralUsd !== undefined &&
    (typeof collateralUsd !== 'number' ||
      !Number.isFinite(collateralUsd) ||
      collateralUsd <= 0 ||
      collateralUsd > MAX_USD)
  ) {
    throw invalid('collateralUsd must be a number > 0 and <= 1e9')
  }
  return { venue, owner: owner.toLowerCase(), collateralUsd }
}

function invalid(message: string): FaucetHttpError {
  return new FaucetHttpError(400, 'invalid_request', message)
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  allow?: string,
): void {
  const text = JSON.stringify(body)
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...(allow ? { allow } : {}),
  })
  res.end(text)
}
