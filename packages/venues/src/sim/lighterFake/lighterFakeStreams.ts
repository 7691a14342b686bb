import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { type RawData, type WebSocket, WebSocketServer } from 'ws'
import { streamRateFromHourly } from '../../lighter/stream/lighterFundingUnits.js'
import {
  LIGHTER_WS_CODES,
  LIGHTER_WS_LIMITS,
  type LighterWsLimits,
} from '../../lighter/stream/lighterWsLimits.js'
import { clientIp } from '../fakeLimitOptions.js'
import {
  createLighterFakeAccountChannel,
  type LighterFakeAccountAuth,
  type LighterFakeAccountSubs,
} from './lighterFakeAccountChannel.js'
import { LighterFakeError } from './lighterFakeError.js'
import { handleRead } from './lighterFakeReads.js'
import type { LighterFakeState } from './lighterFakeState.js'
import { fixed } from './lighterFakeState.js'
import { fireLighterTriggers } from './lighterFakeTriggers.js'

/**
 * The Lighter fake's WebSocket (`/stream`): the `market_stats` channel
 * over the simulated engine, in the frames `lighter/stream/
 * createLighterMarketStream.ts` documents with their sources, and
 * `account_all/<account>` (`lighterFakeAccountChannel.ts`), whose changed
 * rows are pushed every `accountIntervalMs`.
 *
 * - `{"type":"connected"}` on connect (lighter-python `ws_client.py`
 *   waits for it before subscribing).
 * - `{"type":"subscribe","channel":"market_stats/all"}` or
 *   `market_stats/<id>` → `subscribed/market_stats` at once, then
 *   `update/market_stats` every `intervalMs` (channel `market_stats:all`
 *   with every market keyed by id, or `market_stats:<id>` with one
 *   object). The venue sends only the markets that moved; the fake sends
 *   them all each time.
 * - Values come from the REST reads (`handleRead`): `mark_price`,
 *   `index_price`, `last_trade_price`, `open_interest` as
 *   `orderBookDetails` gives them, and `current_funding_rate` /
 *   `funding_rate` = the engine's hourly rate in the stream's unit, percent
 *   per hour (`lighterFundingUnits.ts`); `funding_rate` is not the last settled
 *   one here; `funding_timestamp` is the engine's last hour. Daily
 *   figures are 0.
 * - `{"type":"ping"}` → `{"type":"pong"}`. Anything else →
 *   `{"type":"error","code":30012,…}`, a shape NautilusTrader built for
 *   its tests (`ws_order_book_subscribe_failed.json`), not captured live.
 * - Lighter's WebSocket limits (`lighter/stream/lighterWsLimits.ts`,
 *   replaceable for tests): a connection past the IP's is sent 23003 and
 *   closed (**[unverified]** how the venue refuses it); a subscribe past
 *   the connection's subscriptions is refused 23001, one naming an
 *   account past its distinct accounts 23002; a frame past the rolling
 *   minute's messages is refused 30009 and not acted on. Frames are
 *   answered at once, so the inflight limit is never reached here.
 * - The engine's `outage` fault refuses upgrades (503) and pauses pushes.
 *   Frames are not charged against the REST rate limits.
 *
 * @module
 */

interface LighterFakeStreams {
  /** the http server's `upgrade` listener */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void
  /** terminates every open socket; how many there were */
  dropAll(): number
  /** open sockets */
  clients(): number
  /** the accounts subscribed to `account_all` on open sockets, sorted */
  accountSubscriptions(): number[]
  close(): Promise<void>
}

type Sub = 'all' | number

/** One open socket's subscriptions and the frames it sent this minute. */
interface Conn {
  readonly ip: string
  readonly markets: Set<Sub>
  readonly accounts: LighterFakeAccountSubs
  readonly sentAt: number[]
}

interface LighterFakeStreamOptions {
  /** ms between `market_stats` pushes */
  readonly intervalMs: number
  /** ms between `account_all` diffs @default 200 */
  readonly accountIntervalMs?: number | undefined
  /** @default 'optional' (the docs' Account All has no `auth`) */
  readonly accountAuth?: LighterFakeAccountAuth | undefined
  /** replaces some of Lighter's limits (tests) */
  readonly limits?: Partial<LighterWsLimits> | undefined
}

const STREAM_PATH = '/stream'

export function createLighterFakeStreams(
  state: LighterFakeState,
  options: LighterFakeStreamOptions,
): LighterFakeStreams {
  const { intervalMs } = options
  const limits: LighterWsLimits = { ...LIGHTER_WS_LIMITS, ...options.limits }
  const wss = new WebSocketServer({ noServer: true })
  const subs = new Map<WebSocket, Conn>()
  const accountChannel = createLighterFakeAccountChannel(
    state,
    options.accountAuth ?? 'optional',
  )

  /** every market's stats, keyed by market id, from the REST reads */
  function allStats(): Map<number, Record<string, unknown>> {
    const q = new URLSearchParams()
    const details = handleRead(state, 'orderBookDetails', q, undefined)
      .order_book_details as Record<string, unknown>[]
    const settled =
      state.exchange.nextFundingAt() - state.exchange.fundingIntervalMs
    const out = new Map<number, Record<string, unknown>>()
    for (const d of details) {
      const id = d.market_id as number
      const rate = streamRateFromHourly(
        state.exchange.quote(d.symbol as string).fundingRateHourly,
      )
      out.set(id, {
        symbol: d.symbol,
        market_id: id,
        index_price: d.index_price,
        mark_price: d.mark_price,
        // the stream writes them as strings, the REST spec as numbers
        last_trade_price: fixed(
          d.last_trade_price as number,
          d.price_decimals as number,
        ),
        open_interest: String(d.open_interest),
        current_funding_rate: rate,
        funding_rate: rate,
        funding_timestamp: settled,
        daily_base_token_volume: 0,
        daily_quote_token_volume: 0,
        daily_price_low: 0,
        daily_price_high: 0,
        daily_price_change: 0,
      })
    }
    return out
  }

  function frame(
    kind: 'subscribed' | 'update',
    sub: Sub,
    stats: Map<number, Record<string, unknown>>,
  ): string | null {
    let body: unknown
    if (sub === 'all') {
      body = Object.fromEntries([...stats].map(([id, s]) => [String(id), s]))
    } else {
      body = stats.get(sub)
      if (body === undefined) return null
    }
    return JSON.stringify({
      channel: `market_stats:${sub}`,
      market_stats: body,
      timestamp: state.now(),
      type: `${kind}/market_stats`,
    })
  }

  const error = (
    ws: WebSocket,
    message: string,
    channel?: unknown,
    code: number = LIGHTER_WS_CODES.subscribeFailed,
  ) =>
    ws.send(
      JSON.stringify({
        type: 'error',
        code,
        ...(typeof channel === 'string' ? { channel } : {}),
        message,
      }),
    )

  /** false (and refused) when the connection sent too many this minute */
  function counted(ws: WebSocket, conn: Conn): boolean {
    const t = Date.now()
    while (conn.sentAt.length > 0 && t - (conn.sentAt[0] ?? 0) >= 60_000) {
      conn.sentAt.shift()
    }
    // the venue counts per IP: every connection of this one
    let fromIp = 0
    for (const c of subs.values())
      if (c.ip === conn.ip) fromIp += c.sentAt.length
    if (fromIp >= limits.messagesPerMinute) {
      error(
        ws,
        'Too Many Websocket Messages!',
        undefined,
        LIGHTER_WS_CODES.tooManyMessages,
      )
      return false
    }
    conn.sentAt.push(t)
    return true
  }

  function accountMessage(
    ws: WebSocket,
    conn: Conn,
    m: Record<string, unknown>,
    account: number,
  ) {
    const channel = `account_all:${account}`
    if (m.type === 'unsubscribe') {
      conn.accounts.delete(account)
      return
    }
    if (m.type !== 'subscribe') {
      error(ws, 'failed to subscribe', channel)
      return
    }
    if (!conn.accounts.has(account)) {
      if (
        conn.markets.size + conn.accounts.size >=
        limits.subscriptionsPerConnection
      ) {
        error(
          ws,
          'Too Many Subscriptions!',
          channel,
          LIGHTER_WS_CODES.tooManySubscriptions,
        )
        return
      }
      if (conn.accounts.size >= limits.accountsPerConnection) {
        error(
          ws,
          'Too Many Different Accounts!',
          channel,
          LIGHTER_WS_CODES.tooManyAccounts,
        )
        return
      }
    }
    try {
      ws.send(accountChannel.subscribe(conn.accounts, account, m.auth))
    } catch (e) {
      if (!(e instanceof LighterFakeError)) throw e
      error(ws, e.message, channel, e.code)
    }
  }

  function onMessage(ws: WebSocket, data: RawData) {
    const conn = subs.get(ws)
    if (!conn || !counted(ws, conn)) return
    let msg: unknown
    try {
      msg = JSON.parse(data.toString())
    } catch {
      error(ws, 'invalid message')
      return
    }
    const m = (typeof msg === 'object' && msg !== null ? msg : {}) as Record<
      string,
      unknown
    >
    if (m.type === 'ping') {
      ws.send(JSON.stringify({ type: 'pong' }))
      return
    }
    if (m.type === 'pong') return
    const account =
      typeof m.channel === 'string'
        ? /^account_all\/(\d{1,16})$/.exec(m.channel)
        : null
    if (account) {
      accountMessage(ws, conn, m, Number(account[1]))
      return
    }
    const match =
      typeof m.channel === 'string'
        ? /^market_stats\/(all|\d+)$/.exec(m.channel)
        : null
    const sub: Sub | null =
      match === null ? null : match[1] === 'all' ? 'all' : Number(match[1])
    if (
      (m.type !== 'subscribe' && m.type !== 'unsubscribe') ||
      sub === null ||
      (sub !== 'all' && !state.markets.some((x) => x.marketId === sub))
    ) {
      error(ws, 'failed to subscribe', m.channel)
      return
    }
    const mine = conn.markets
    if (m.type === 'unsubscribe') {
      mine.delete(sub)
      return
    }
    if (
      !mine.has(sub) &&
      mine.size + conn.accounts.size >= limits.subscriptionsPerConnection
    ) {
      error(
        ws,
        'Too Many Subscriptions!',
        m.channel,
        LIGHTER_WS_CODES.tooManySubscriptions,
      )
      return
    }
    mine.add(sub)
    const text = frame('subscribed', sub, allStats())
    if (text !== null) ws.send(text)
  }

  wss.on('connection', (ws: WebSocket, req: IncomingMessage) => {
    const ip = clientIp(req)
    let open = 0
    for (const c of subs.values()) if (c.ip === ip) open++
    if (open >= limits.connections) {
      error(
        ws,
        'Too Many Connections!',
        undefined,
        LIGHTER_WS_CODES.tooManyConnections,
      )
      ws.close()
      return
    }
    subs.set(ws, { ip, markets: new Set(), accounts: new Map(), sentAt: [] })
    ws.on('message', (data) => onMessage(ws, data))
    ws.on('close', () => subs.delete(ws))
    ws.on('error', () => ws.terminate())
    ws.send(JSON.stringify({ type: 'connected' }))
  })

  const timer = setInterval(() => {
    if (state.exchange.faults().outage) return
    if (![...subs.values()].some((s) => s.markets.size > 0)) return
    const stats = allStats()
    for (const [ws, conn] of subs) {
      if (ws.readyState !== ws.OPEN) continue
      for (const sub of conn.markets) {
        const text = frame('update', sub, stats)
        if (text !== null) ws.send(text)
      }
    }
  }, intervalMs)
  timer.unref()

  // a diff of every subscribed account's rows: fills, funding and
  // liquidations show within one interval
  const accountTimer = setInterval(() => {
    if (state.exchange.faults().outage) return
    // waiting trigger orders also fire between requests; an engine fault
    // here must not kill the process (the next request reports it)
    try {
      fireLighterTriggers(state)
    } catch {}
    for (const [ws, conn] of subs) {
      if (ws.readyState !== ws.OPEN || conn.accounts.size === 0) continue
      for (const text of accountChannel.updates(conn.accounts)) ws.send(text)
    }
  }, options.accountIntervalMs ?? 200)
  accountTimer.unref()

  return {
    upgrade(req, socket, head) {
      const path = new URL(req.url ?? '/', 'http://fake').pathname
      if (path !== STREAM_PATH) {
        socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n')
        return
      }
      if (state.exchange.faults().outage) {
        socket.end(
          'HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\n\r\n',
        )
        return
      }
      wss.handleUpgrade(req, socket, head, (ws) => {
        wss.emit('connection', ws, req)
      })
    },
    dropAll() {
      const open = [...subs.keys()]
      for (const ws of open) {
        subs.delete(ws)
        ws.terminate()
      }
      return open.length
    },
    clients: () => subs.size,
    accountSubscriptions() {
      const all = new Set<number>()
      for (const c of subs.values())
        for (const a of c.accounts.keys()) all.add(a)
      return [...all].sort((a, b) => a - b)
    },
    close() {
      clearInterval(timer)
      clearInterval(accountTimer)
      for (const ws of subs.keys()) ws.terminate()
      subs.clear()
      return new Promise<void>((resolve) => wss.close(() => resolve()))
    },
  }
}
