/**
 * Aster's Futures WebSocket market streams over the simulated engine.
 *
 * Wire format, from asterdex/api-docs @ 265e024 (2026-06-30)
 * `V3(Recommended)/EN/aster-finance-futures-api-v3.md`, "Websocket Market
 * Streams" (same text as in aster-skills-hub `aster-api-websocket-v3`):
 * - raw streams at `/ws/<streamName>`, combined streams at
 *   `/stream?streams=<a>/<b>`, whose events come as
 *   `{"stream":"<name>","data":<payload>}`; symbols lowercase;
 * - live `{"method":"SUBSCRIBE"|"UNSUBSCRIBE","params":[…],"id":n}` →
 *   `{"result":null,"id":n}`, `LIST_SUBSCRIPTIONS` → `{"result":[…]}`,
 *   `SET_PROPERTY` / `GET_PROPERTY` `combined`; errors `{"code","msg"}`
 *   as in the doc's "Error Messages" table;
 * - the server pings every 5 minutes and drops a connection that sent no
 *   pong for 15; a connection lives 24 h;
 * - `<symbol>@markPrice[@1s]` pushes `{e:"markPriceUpdate", E, s, p, i,
 *   P, r, T}`, `!markPrice@arr[@1s]` an array of them; `<symbol>@bookTicker`
 *   and `!bookTicker` push `{e:"bookTicker", u, E, T, s, b, B, a, A}`, one
 *   event per symbol.
 *
 * The fake's values are the REST answers (`premiumIndex`,
 * `ticker/bookTicker` from `handleMarket`), re-read every `intervalMs`
 * (the venue: 1 s or 3 s for marks, every change for books).
 * Not modelled: the 10 incoming messages/s and 200 streams/connection
 * limits; the exact error answer to an unknown stream name (unverified:
 * the fake accepts it and sends nothing on it).
 *
 * @module
 */
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocket, WebSocketServer } from 'ws'
import { handleMarket } from './asterFakeMarket.js'
import type { AsterFakeState } from './asterFakeState.js'

interface AsterFakeStreamOptions {
  /** ms between pushes of every subscribed stream @default 1000 */
  readonly intervalMs?: number | undefined
  /** ms between the server's pings; no pong for 3 of them drops @default 300_000 */
  readonly pingIntervalMs?: number | undefined
  /** ms a connection lives before the server closes it @default 86_400_000 */
  readonly lifetimeMs?: number | undefined
}

/** One open stream connection, as the fake sees it. */
export interface AsterFakeStreamClient {
  /** subscribed stream names, in order */
  readonly streams: readonly string[]
  /** events wrapped as `{stream, data}` */
  readonly combined: boolean
  /** Unix ms (wall clock) */
  readonly connectedAt: number
  /** pongs received in answer to the server's pings */
  readonly pongs: number
}

interface AsterFakeStreams {
  /** The HTTP server's 'upgrade' handler. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void
  /** Terminates every open connection (a network drop). */
  drop(): void
  clients(): AsterFakeStreamClient[]
  /** Terminates every connection and stops the timers. */
  close(): void
}

/** A premiumIndex row as `handleMarket` answers it. */
interface PremiumRow {
  readonly symbol: string
  readonly markPrice: string
  readonly indexPrice: string
  readonly estimatedSettlePrice: string
  readonly lastFundingRate: string
  readonly nextFundingTime: number
  readonly time: number
}

/** A ticker/bookTicker row as `handleMarket` answers it. */
interface BookRow {
  readonly symbol: string
  readonly bidPrice: string
  readonly bidQty: string
  readonly askPrice: string
  readonly askQty: string
  readonly time: number
}

type Stream =
  | { readonly kind: 'marks' }
  | { readonly kind: 'books' }
  | { readonly kind: 'mark' | 'book'; readonly symbol: string }

/** A stream name the fake serves; null for any other. */
export function parseAsterStreamName(name: string): Stream | null {
  if (name === '!markPrice@arr' || name === '!markPrice@arr@1s') {
    return { kind: 'marks' }
  }
  if (name === '!bookTicker') return { kind: 'books' }
  const m = /^([A-Za-z0-9]+)@(markPrice(?:@1s)?|bookTicker)$/.exec(name)
  if (!m?.[1] || !m[2]) return null
  return {
    kind: m[2] === 'bookTicker' ? 'book' : 'mark',
    symbol: m[1].toUpperCase(),
  }
}

interface Client {
  readonly ws: WebSocket
  combined: boolean
  readonly streams: string[]
  readonly connectedAt: number
  pongs: number
  lastPongAt: number
}

/** The events of one push, read once from the engine. */
interface Snapshot {
  marks(): Map<string, object>
  books(): Map<string, object>
}

const ERR_JSON = {
  code: 3,
  msg: 'Invalid JSON: expected value at line 1 column 1',
}
const ERR_METHOD = { code: 2, msg: 'Invalid request: missing field `method`' }
const ERR_ID = {
  code: 2,
  msg: 'Invalid request: request ID must be an unsigned integer',
}
const ERR_PROPERTY = { code: 0, msg: 'Unknown property' }
const ERR_BOOLEAN = { code: 1, msg: 'Invalid value type: expected Boolean' }
const ERR_PARAMS = { code: 2, msg: 'Invalid request: too many parameters' }
const unknownMethod = (m: string) => ({
  code: 2,
  msg: `Invalid request: unknown variant ${m}, expected one of SUBSCRIBE, UNSUBSCRIBE, LIST_SUBSCRIPTIONS, SET_PROPERTY, GET_PROPERTY`,
})

/**
 * Serves the market streams of an Aster fake on its HTTP server (the
 * caller forwards the server's 'upgrade' events). Frames are not charged
 * against the REST weight limits. In an engine `outage` upgrades are
 * refused with 503 and nothing is pushed, so clients see silence.
 * @example
 * const streams = createAsterFakeStreams(state)
 * server.on('upgrade', (req, socket, head) => streams.upgrade(req, socket, head))
 */
export function createAsterFakeStreams(
  state: AsterFakeState,
  options: AsterFakeStreamOptions = {},
): AsterFakeStreams {
  const intervalMs = options.intervalMs ?? 1000
  const pingMs = options.pingIntervalMs ?? 300_000
  const lifetimeMs = options.lifetimeMs ?? 86_400_000
  const wss = new WebSocketServer({ noServer: true })
  const clients = new Set<Client>()
  let closed = false
  let updateId = 0

  const pusher = setInterval(push, intervalMs)
  pusher.unref()
  const pinger = setInterval(ping, pingMs)
  pinger.unref()

  function snapshot(): Snapshot {
    let marks: Map<string, object> | undefined
    let books: Map<string, object> | undefined
    const all = () => new URLSearchParams()
    return {
      marks() {
        marks ??= new Map(
          (
            handleMarket(state, '/fapi/v3/premiumIndex', all()) as PremiumRow[]
          ).map((r) => [r.symbol, markEvent(r)]),
        )
        return marks
      },
      books() {
        books ??= new Map(
          (
            handleMarket(
              state,
              '/fapi/v3/ticker/bookTicker',
              all(),
            ) as BookRow[]
          ).map((r) => [r.symbol, bookEvent(r, ++updateId)]),
        )
        return books
      },
    }
  }

  function push() {
    if (clients.size === 0) return
    const now = Date.now()
    for (const c of clients) {
      if (now - c.connectedAt >= lifetimeMs) {
        forget(c)
        c.ws.close(1000, 'connection lifetime reached')
      }
    }
    if (clients.size === 0 || state.exchange.faults().outage) return
    const snap = snapshot()
    for (const c of clients) {
      for (const name of c.streams) {
        for (const data of eventsOf(snap, name)) send(c, name, data)
      }
    }
  }

  function ping() {
    const now = Date.now()
    for (const c of clients) {
      if (now - c.lastPongAt > 3 * pingMs) {
        forget(c)
        c.ws.terminate()
      } else if (c.ws.readyState === WebSocket.OPEN) c.ws.ping()
    }
  }

  function send(c: Client, name: string, data: unknown) {
    if (c.ws.readyState !== WebSocket.OPEN) return
    c.ws.send(JSON.stringify(c.combined ? { stream: name, data } : data))
  }

  function answer(c: Client, body: unknown) {
    if (c.ws.readyState === WebSocket.OPEN) c.ws.send(JSON.stringify(body))
  }

  function forget(c: Client) {
    clients.delete(c)
  }

  function onFrame(c: Client, text: string) {
    let msg: unknown
    try {
      msg = JSON.parse(text)
    } catch {
      answer(c, ERR_JSON)
      return
    }
    if (!isObject(msg) || typeof msg.method !== 'string') {
      answer(c, ERR_METHOD)
      return
    }
    const { id, method, params } = msg
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0) {
      answer(c, ERR_ID)
      return
    }
    const names = Array.isArray(params) ? params : []
    switch (method) {
      case 'SUBSCRIBE':
      case 'UNSUBSCRIBE': {
        if (!names.every((p) => typeof p === 'string')) {
          answer(c, ERR_PARAMS)
          return
        }
        for (const n of names as string[]) {
          const at = c.streams.indexOf(n)
          if (method === 'SUBSCRIBE' && at < 0) c.streams.push(n)
          if (method === 'UNSUBSCRIBE' && at >= 0) c.streams.splice(at, 1)
        }
        answer(c, { result: null, id })
        return
      }
      case 'LIST_SUBSCRIPTIONS':
        answer(c, { result: [...c.streams], id })
        return
      case 'SET_PROPERTY':
        if (names[0] !== 'combined') answer(c, ERR_PROPERTY)
        else if (typeof names[1] !== 'boolean') answer(c, ERR_BOOLEAN)
        else {
          c.combined = names[1]
          answer(c, { result: null, id })
        }
        return
      case 'GET_PROPERTY':
        if (names[0] !== 'combined') answer(c, ERR_PROPERTY)
        else answer(c, { result: c.combined, id })
        return
      default:
        answer(c, unknownMethod(method))
    }
  }

  function attach(ws: WebSocket, combined: boolean, streams: string[]) {
    const now = Date.now()
    const c: Client = {
      ws,
      combined,
      streams,
      connectedAt: now,
      pongs: 0,
      lastPongAt: now,
    }
    clients.add(c)
    ws.on('message', (data, isBinary) => {
      if (!isBinary) onFrame(c, String(data))
    })
    ws.on('pong', () => {
      c.pongs += 1
      c.lastPongAt = Date.now()
    })
    ws.on('close', () => forget(c))
    ws.on('error', () => forget(c))
  }

  return {
    upgrade(req, socket, head) {
      socket.on('error', () => {})
      const target = route(req.url ?? '/')
      if (closed || !target) {
        refuse(socket, 404, 'Not Found')
        return
      }
      if (state.exchange.faults().outage) {
        refuse(socket, 503, 'Service Unavailable')
        return
      }
      wss.handleUpgrade(req, socket, head, (ws) =>
        attach(ws, target.combined, target.streams),
      )
    },
    drop() {
      for (const c of [...clients]) {
        forget(c)
        c.ws.terminate()
      }
    },
    clients: () =>
      [...clients].map((c) => ({
        streams: [...c.streams],
        combined: c.combined,
        connectedAt: c.connectedAt,
        pongs: c.pongs,
      })),
    close() {
      closed = true
      clearInterval(pusher)
      clearInterval(pinger)
      for (const c of [...clients]) {
        forget(c)
        c.ws.terminate()
      }
      wss.close()
    },
  }
}

/** The events stream `name` carries in one push. */
function eventsOf(snap: Snapshot, name: string): object[] {
  const s = parseAsterStreamName(name)
  if (!s) return []
  switch (s.kind) {
    case 'marks':
      return [[...snap.marks().values()]]
    case 'books':
      return [...snap.books().values()]
    case 'mark': {
      const e = snap.marks().get(s.symbol)
      return e ? [e] : []
    }
    case 'book': {
      const e = snap.books().get(s.symbol)
      return e ? [e] : []
    }
  }
}

function markEvent(r: PremiumRow) {
  return {
    e: 'markPriceUpdate',
    E: r.time,
    s: r.symbol,
    p: r.markPrice,
    i: r.indexPrice,
    P: r.estimatedSettlePrice,
    r: r.lastFundingRate,
    T: r.nextFundingTime,
  }
}

function bookEvent(r: BookRow, u: number) {
  return {
    e: 'bookTicker',
    u,
    E: r.time,
    T: r.time,
    s: r.symbol,
    b: r.bidPrice,
    B: r.bidQty,
    a: r.askPrice,
    A: r.askQty,
  }
}

/** `/stream?streams=a/b` (combined) or `/ws[/<stream>]` (raw). */
function route(url: string): { combined: boolean; streams: string[] } | null {
  const u = new URL(url, 'http://fake')
  if (u.pathname === '/stream' || u.pathname === '/stream/') {
    const streams = (u.searchParams.get('streams') ?? '')
      .split('/')
      .filter((s) => s.length > 0)
    return { combined: true, streams: [...new Set(streams)] }
  }
  if (u.pathname === '/ws' || u.pathname === '/ws/') {
    return { combined: false, streams: [] }
  }
  if (u.pathname.startsWith('/ws/')) {
    let name: string
    try {
      name = decodeURIComponent(u.pathname.slice(4))
    } catch {
      return null
    }
    return name.includes('/') ? null : { combined: false, streams: [name] }
  }
  return null
}

function refuse(socket: Duplex, status: number, text: string) {
  socket.once('finish', () => socket.destroy())
  socket.end(
    `HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
  )
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}
