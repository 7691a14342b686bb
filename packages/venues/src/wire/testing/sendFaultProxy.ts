import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { roundPrice, type VenueAdapter, type VenueOrderRequest } from '@dn/core'

/**
 * What happens to the one request a test arms a fault for:
 * - `answer`: not forwarded (the venue never sees it); this answer instead
 * - `answerAfter`: forwarded (the venue acts), its answer replaced by this
 * - `resetAfter`: forwarded (the venue acts), the connection then reset
 * - `resetBefore`: read whole, never forwarded (the venue never sees it),
 *   the connection then reset: to the client, exactly `resetAfter`
 * - `hold`: read, never forwarded, never answered (until the client quits)
 */
export type SendFault =
  | {
      readonly kind: 'answer' | 'answerAfter'
      readonly status: number
      readonly body: string
      readonly headers?: Readonly<Record<string, string>> | undefined
    }
  | { readonly kind: 'resetAfter' | 'resetBefore' | 'hold' }

/** Which request a fault is for. */
export type SendMatch = (method: string, path: string, body: string) => boolean

export interface SendFaultProxy {
  /** where the adapter under test sends, in place of the venue */
  readonly url: string
  /** The next request `match` accepts meets `fault` (once). */
  arm(match: SendMatch, fault: SendFault): void
  /** how many requests met a fault so far */
  faulted(): number
  /** Stops listening: every new connection is refused. */
  refuse(): Promise<void>
  /** Listens again on the same port. */
  restore(): Promise<void>
  close(): Promise<void>
}

/**
 * Test kit: a loopback HTTP proxy in front of a venue fake that forwards
 * every request byte for byte, except one armed request. Every answer says
 * `connection: close`, so each request opens its own connection and a
 * refused listener is refused for the very next request (no kept-alive
 * socket to write on).
 * @internal
 */
export async function startSendFaultProxy(
  upstream: string,
): Promise<SendFaultProxy> {
  const target = new URL(upstream)
  let armed: { match: SendMatch; fault: SendFault } | null = null
  let hits = 0
  const held = new Set<Socket>()
  const server = createServer(async (req, res) => {
    const body = await readAll(req)
    const method = req.method ?? 'GET'
    const path = req.url ?? '/'
    const fault = armed?.match(method, path, body) ? armed.fault : null
    if (fault) {
      armed = null
      hits++
    }
    if (fault?.kind === 'hold') {
      held.add(req.socket)
      return
    }
    if (fault?.kind === 'resetBefore') {
      req.socket.resetAndDestroy()
      return
    }
    if (fault?.kind === 'answer') {
      reply(res, fault.status, fault.headers ?? {}, fault.body)
      return
    }
    const answer = await forward(target, req, body).catch(
      (e: unknown): Answer => ({ status: 502, headers: {}, body: String(e) }),
    )
    if (fault?.kind === 'resetAfter') {
      req.socket.resetAndDestroy()
      return
    }
    if (fault?.kind === 'answerAfter') {
      reply(res, fault.status, fault.headers ?? {}, fault.body)
      return
    }
    reply(res, answer.status, answer.headers, answer.body)
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const s of held) s.destroy()
      held.clear()
      server.closeAllConnections()
      server.close(() => resolve())
    })
  return {
    url: `http://127.0.0.1:${port}`,
    arm: (match, fault) => {
      armed = { match, fault }
    },
    faulted: () => hits,
    refuse: stop,
    restore: () =>
      new Promise<void>((r) => server.listen(port, '127.0.0.1', r)),
    close: () => (server.listening ? stop() : Promise.resolve()),
  }
}

interface Answer {
  readonly status: number
  readonly headers: Record<string, string>
  readonly body: string
}

function readAll(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

function forward(
  target: URL,
  req: IncomingMessage,
  body: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers = { ...req.headers, host: target.host }
    delete headers.connection
    const out = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers,
        agent: false,
      },
      async (answer) => {
        const text = await readAll(answer)
        const kept: Record<string, string> = {}
        for (const [k, v] of Object.entries(answer.headers)) {
          if (
            /^(connection|keep-alive|transfer-encoding|content-length)$/.test(k)
          )
            continue
          if (typeof v === 'string') kept[k] = v
        }
        resolve({ status: answer.statusCode ?? 502, headers: kept, body: text })
      },
    )
    out.on('error', reject)
    out.end(body)
  })
}

function reply(
  res: ServerResponse,
  status: number,
  headers: Readonly<Record<string, string>>,
  body: string,
): void {
  res.writeHead(status, {
    ...headers,
    connection: 'close',
    'content-length': Buffer.byteLength(body),
  })
  res.end(body)
}

/**
 * Test kit: an IOC buy through the mark (1 % above it, on the tick) of
 * `market`, the order each venue's not-sent tests place.
 * @internal
 */
export async function crossingBuy(
  adapter: Pick<VenueAdapter, 'rules' | 'quote'>,
  market: string,
  size: string,
  clientOrderId: string,
): Promise<VenueOrderRequest> {
  const rules = await adapter.rules(market)
  if (!rules) throw new Error(`${market} not listed`)
  const mark = Number((await adapter.quote(market)).mark)
  return {
    market,
    side: 'long',
    size,
    price: roundPrice(rules, mark * 1.01, 'up').toFixed(),
    timeInForce: 'ioc',
    reduceOnly: false,
    clientOrderId,
  }
}

/**
 * Test kit: runs `place` with `fault` armed for the request `match`
 * names, and returns what it failed with (undefined when it did not).
 * @throws when the fault was not met: the test would prove nothing
 * @internal
 */
export async function placeFaulted(
  proxy: SendFaultProxy,
  match: SendMatch,
  fault: SendFault,
  place: () => Promise<unknown>,
): Promise<unknown> {
  const before = proxy.faulted()
  proxy.arm(match, fault)
  const err = await place().then(
    () => undefined,
    (e: unknown) => e,
  )
  if (proxy.faulted() !== before + 1) {
    throw new Error('the armed fault was not met')
  }
  return err
}
