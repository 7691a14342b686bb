import {
  Agent,
  createServer,
  type IncomingMessage,
  request,
  type ServerResponse,
} from 'node:http'
import { type AddressInfo, connect, type Socket } from 'node:net'
import type { VenueId } from '@dn/core'
import { seededRandom } from '../../packages/venues/src/sim/seededRandom.js'

/**
 * What a venue (or the network in front of it) does wrong to one request:
 * - `gateway`: a 502 from a load balancer, nothing forwarded (the client
 *   cannot tell whether the venue acted)
 * - `notActed`: the venue's own answer that it did not act (its 429, with
 *   Retry-After where the venue sends one), nothing forwarded
 * - `hang`: nothing forwarded and no answer, until the client gives up
 * - `resetBefore`: the connection reset, nothing forwarded
 * - `refuse`: the venue goes away for a moment: the connection reset and
 *   new connections refused for 1-2 s
 * - `dropAfter`: forwarded, the venue acts, and its answer is lost (reset)
 * - `slow`: forwarded, the answer held back 0.5-3 s
 * - `wsClose`: a WebSocket connection cut
 * - `wsStall`: a WebSocket connection's frames to the client held 2-6 s
 */
export type FaultKind =
  | 'gateway'
  | 'notActed'
  | 'hang'
  | 'resetBefore'
  | 'refuse'
  | 'dropAfter'
  | 'slow'
  | 'wsClose'
  | 'wsStall'

const HTTP_FAULTS: readonly (readonly [FaultKind, number])[] = [
  ['gateway', 3],
  ['notActed', 3],
  ['hang', 1],
  ['resetBefore', 2],
  ['refuse', 1],
  ['dropAfter', 3],
  ['slow', 3],
]

/** One fault as it was injected, for the run's report and its replay. */
export interface FaultEvent {
  readonly at: number
  readonly kind: FaultKind
  readonly method: string
  readonly path: string
}

export interface FaultProxy {
  /** the proxy's base URL, to publish in place of the venue's */
  readonly url: string
  /** share of requests (and of WebSocket checks) faulted; 0 turns it off */
  setRate(rate: number): void
  /** every fault injected so far */
  events(): readonly FaultEvent[]
  /**
   * requests seen, by endpoint (a path; Hyperliquid's `/info` and
   * `/exchange` by their `type`): where a venue's budget went
   */
  requests(): ReadonlyMap<string, number>
  close(): Promise<void>
}

/**
 * The venue's refusal that says nothing was done, as each venue words it:
 * Hyperliquid 429 `null`, Lighter 429 `{code: 23000}`, Aster 429
 * `{code: -1003}` with Retry-After (the shapes the fakes send themselves).
 */
function sendNotActed(venue: VenueId, res: ServerResponse): void {
  const [headers, body] =
    venue === 'hl'
      ? [{}, 'null']
      : venue === 'aster'
        ? [
            { 'retry-after': '1' },
            JSON.stringify({
              code: -1003,
              msg: 'Too many requests; please use the websocket for live updates.',
            }),
          ]
        : [{}, JSON.stringify({ code: 23000, message: 'Too Many Requests!' })]
  res.writeHead(429, { 'content-type': 'application/json', ...headers })
  res.end(body)
}

/**
 * A seeded fault-injecting reverse proxy in front of one protocol fake,
 * HTTP and WebSocket, on loopback. Each request draws the same number of
 * values from the seeded stream, so a seed and a rate replay the same
 * faults for the same sequence of requests (concurrency may reorder
 * them: exact enough to debug a run).
 */
export async function startFaultProxy(o: {
  readonly venue: VenueId
  /** the fake's base URL */
  readonly target: string
  readonly seed: number
  readonly rate?: number
}): Promise<FaultProxy> {
  const target = new URL(o.target)
  const random = seededRandom(o.seed)
  let rate = o.rate ?? 0
  const log: FaultEvent[] = []
  const sockets = new Set<Socket>()
  const timers = new Set<NodeJS.Timeout>()
  const agent = new Agent({ keepAlive: true })
  let down = false
  let port = 0
  let closed = false
  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t)
      fn()
    }, ms)
    timers.add(t)
  }
  const requests = new Map<string, number>()
  const endpointOf = (req: IncomingMessage, body: Buffer): string => {
    const path = (req.url ?? '').split('?')[0] ?? ''
    if (path !== '/info' && path !== '/exchange') return `${req.method} ${path}`
    try {
      const json = JSON.parse(body.toString()) as {
        type?: unknown
        action?: { type?: unknown }
      }
      return `${path} ${String(path === '/info' ? json.type : json.action?.type)}`
    } catch {
      return path
    }
  }
  const note = (kind: FaultKind, req: IncomingMessage) =>
    log.push({
      at: Date.now(),
      kind,
      method: req.method ?? '',
      path: (req.url ?? '').split('?')[0] ?? '',
    })
  const pick = (draw: number): FaultKind => {
    const total = HTTP_FAULTS.reduce((s, [, w]) => s + w, 0)
    let x = draw * total
    for (const [kind, w] of HTTP_FAULTS) {
      x -= w
      if (x < 0) return kind
    }
    return 'slow'
  }

  const forward = (
    req: IncomingMessage,
    body: Buffer,
    answer: (status: number, headers: object, data: Buffer) => void,
    fail: () => void,
  ) => {
    const up = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host },
        agent,
      },
      (r) => {
        const chunks: Buffer[] = []
        r.on('data', (c: Buffer) => chunks.push(c))
        r.on('end', () => {
          const headers = { ...r.headers }
          delete headers['transfer-encoding']
          delete headers.connection
          answer(r.statusCode ?? 502, headers, Buffer.concat(chunks))
        })
        r.on('error', fail)
      },
    )
    up.on('error', fail)
    up.end(body)
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      const endpoint = endpointOf(req, body)
      requests.set(endpoint, (requests.get(endpoint) ?? 0) + 1)
      // three draws a request whatever happens, so the stream stays aligned
      const [hit, which, param] = [random(), random(), random()]
      const kind = hit < rate ? pick(which) : null
      if (kind) note(kind, req)
      const reply = (status: number, headers: object, data: Buffer) => {
        if (res.destroyed) return
        res.writeHead(status, {
          ...headers,
          'content-length': String(data.length),
        })
        res.end(data)
      }
      const gone = () => res.destroy()
      switch (kind) {
        case 'gateway':
          res.writeHead(502, { 'content-type': 'text/html' })
          res.end('<html><body><h1>502 Bad Gateway</h1></body></html>')
          return
        case 'notActed':
          return sendNotActed(o.venue, res)
        case 'hang':
          // held until the client gives up; the socket goes with close()
          return
        case 'resetBefore':
          return void req.socket.resetAndDestroy()
        case 'refuse':
          return goDown(1_000 + param * 1_000)
        case 'dropAfter':
          return forward(req, body, () => req.socket.resetAndDestroy(), gone)
        case 'slow':
          return forward(
            req,
            body,
            (s, h, d) => later(500 + param * 2_500, () => reply(s, h, d)),
            gone,
          )
        default:
          return forward(req, body, reply, gone)
      }
    })
  })

  // the venue goes away: its connections reset, and new ones refused
  // (ECONNREFUSED) until it listens again on the same port
  const goDown = (ms: number) => {
    if (down) return
    down = true
    for (const s of sockets) s.resetAndDestroy()
    server.close()
    later(ms, () => {
      if (closed) return
      server.listen(port, '127.0.0.1')
      down = false
    })
  }

  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })

  server.on('upgrade', (req: IncomingMessage, client: Socket, head: Buffer) => {
    sockets.add(client)
    client.once('close', () => sockets.delete(client))
    const up = connect(Number(target.port), target.hostname)
    sockets.add(up)
    up.once('close', () => sockets.delete(up))
    let stalled: Buffer[] | null = null
    const cut = () => {
      client.destroy()
      up.destroy()
    }
    up.on('connect', () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`]
      for (let i = 0; i < req.rawHeaders.length; i += 2) {
        const name = req.rawHeaders[i] as string
        const value =
          name.toLowerCase() === 'host'
            ? target.host
            : (req.rawHeaders[i + 1] as string)
        lines.push(`${name}: ${value}`)
      }
      up.write(`${lines.join('\r\n')}\r\n\r\n`)
      if (head.length > 0) up.write(head)
    })
    up.on('data', (d: Buffer) => {
      if (stalled) stalled.push(d)
      else client.write(d)
    })
    client.on('data', (d: Buffer) => up.write(d))
    up.on('error', cut)
    client.on('error', cut)
    up.on('close', cut)
    client.on('close', cut)
    // a connection is looked at every 2 s while it lives
    const check = setInterval(() => {
      const [hit, which, param] = [random(), random(), random()]
      if (stalled || hit >= rate / 4) return
      if (which < 0.5) {
        note('wsClose', req)
        return cut()
      }
      note('wsStall', req)
      stalled = []
      later(2_000 + param * 4_000, () => {
        const held = stalled ?? []
        stalled = null
        for (const d of held) if (!client.destroyed) client.write(d)
      })
    }, 2_000)
    client.once('close', () => clearInterval(check))
  })

  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}`,
    setRate(r) {
      rate = r
    },
    events: () => log,
    requests: () => requests,
    async close() {
      if (closed) return
      closed = true
      for (const t of timers) clearTimeout(t)
      for (const s of sockets) s.destroy()
      agent.destroy()
      server.closeAllConnections()
      if (!down) await new Promise((r) => server.close(r))
    },
  }
}
