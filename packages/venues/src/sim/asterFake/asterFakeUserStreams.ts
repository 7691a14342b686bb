/**
 * Aster user data streams (`/ws/<listenKey>`) over the simulated engine.
 *
 * As the futures v3 doc (asterdex/api-docs @ 265e024, "User Data
 * Streams") states: `ACCOUNT_UPDATE` `{e, E, T, a: {m, B, P}}` whenever
 * the account's balances or positions change; `P` lists the positions
 * that changed (a closed one with `pa` "0"); a funding fee on a crossed
 * position comes with the balance `B` only (`m` FUNDING_FEE), on an
 * isolated one with that position too; `listenKeyExpired` `{e, E}` when
 * the key in use expires, after which nothing more is sent on it (the
 * connection stays open); the server pings every 5 minutes; DELETE
 * "will close the stream".
 *
 * The fake compares each watched account's engine state (positions' size,
 * entry price and margin mode; collateral) every `intervalMs` and sends
 * the difference; fills, funding settlements and liquidations all show
 * this way. Reasons: ORDER when a position changed, FUNDING_FEE when only
 * the balance did and a funding payment was booked, else DEPOSIT.
 *
 * [unverified]: the answer to a connect with an unknown or expired key
 * (the doc says nothing; the fake refuses the upgrade with HTTP 400); the
 * close code of a DELETEd key's connections (1000 here); `iw` (always "0":
 * the engine keeps no isolated wallet) and `cr` (absent).
 *
 * @module
 */
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { dec, decString, type VenuePosition } from '@dn/core'
import { WebSocket, WebSocketServer } from 'ws'
import type { AsterFakeListenKeys } from './asterFakeListenKeys.js'
import { type AsterFakeState, hasAccount } from './asterFakeState.js'

interface AsterFakeUserStreamOptions {
  /** ms between comparisons of the accounts' engine state @default 200 */
  readonly intervalMs?: number | undefined
  /** ms between the server's pings @default 300_000 */
  readonly pingIntervalMs?: number | undefined
}

interface AsterFakeUserStreams {
  /** True when `url` is a user stream (`/ws/<listenKey>` of any key). */
  claims(url: string): boolean
  /** The HTTP server's 'upgrade' handler for a claimed URL. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void
  /** the open user-stream connections */
  clients(): { readonly user: string; readonly listenKey: string }[]
  /** Terminates every user-stream connection (a network drop). */
  drop(): void
  close(): void
}

/** What the stream last told a connection about its account. */
interface Seen {
  readonly positions: Map<string, VenuePosition>
  collateral: string
  fundingRows: number
}

interface Client {
  readonly ws: WebSocket
  readonly user: string
  readonly listenKey: string
  seen: Seen
  /** told listenKeyExpired: nothing more is sent */
  expired: boolean
}

/** Aster's sample key: 64 letters and digits. */
const LISTEN_KEY = /^\/ws\/([A-Za-z0-9]{64})\/?$/

export function createAsterFakeUserStreams(
  state: AsterFakeState,
  keys: AsterFakeListenKeys,
  options: AsterFakeUserStreamOptions = {},
): AsterFakeUserStreams {
  const wss = new WebSocketServer({ noServer: true })
  const clients = new Set<Client>()
  let closed = false
  const ticker = setInterval(tick, options.intervalMs ?? 200)
  ticker.unref()
  const pinger = setInterval(() => {
    for (const c of clients) {
      if (c.ws.readyState === WebSocket.OPEN) c.ws.ping()
    }
  }, options.pingIntervalMs ?? 300_000)
  pinger.unref()

  function read(user: string): Seen {
    if (!hasAccount(state, user)) {
      return { positions: new Map(), collateral: '0', fundingRows: 0 }
    }
    const positions = new Map(
      state.exchange.positions(user).map((p) => [p.market, p] as const),
    )
    const markets = state.exchange.listed().map((r) => r.symbol)
    const fundingRows = markets.reduce(
      (n, m) =>
        n + state.exchange.funding(user, m, new Date(0).toISOString()).length,
      0,
    )
    return {
      positions,
      collateral: state.exchange.account(user).collateralUsd,
      fundingRows,
    }
  }

  function tick() {
    if (clients.size === 0) return
    const expired = new Set(keys.expire())
    const t = state.now()
    for (const c of [...clients]) {
      if (c.expired) continue
      if (expired.has(c.listenKey)) {
        c.expired = true
        send(c, { e: 'listenKeyExpired', E: t })
        continue
      }
      if (keys.userOf(c.listenKey) !== c.user) {
        // DELETEd: "will close the stream"
        clients.delete(c)
        c.ws.close(1000, 'listenKey closed')
        continue
      }
      if (state.exchange.faults().outage) continue
      const now = read(c.user)
      const event = difference(c.seen, now, t)
      c.seen = now
      if (event) send(c, event)
    }
  }

  function send(c: Client, body: unknown) {
    if (c.ws.readyState === WebSocket.OPEN) c.ws.send(JSON.stringify(body))
  }

  return {
    claims: (url) => LISTEN_KEY.test(new URL(url, 'http://fake').pathname),
    upgrade(req, socket, head) {
      socket.on('error', () => {})
      const m = LISTEN_KEY.exec(new URL(req.url ?? '/', 'http://fake').pathname)
      const listenKey = m?.[1]
      const user = listenKey === undefined ? undefined : keys.userOf(listenKey)
      if (closed || listenKey === undefined || user === undefined) {
        refuse(socket, 400, 'Bad Request')
        return
      }
      if (state.exchange.faults().outage) {
        refuse(socket, 503, 'Service Unavailable')
        return
      }
      wss.handleUpgrade(req, socket, head, (ws) => {
        const c: Client = {
          ws,
          user,
          listenKey,
          seen: read(user),
          expired: false,
        }
        clients.add(c)
        ws.on('close', () => clients.delete(c))
        ws.on('error', () => clients.delete(c))
      })
    },
    clients: () =>
      [...clients].map((c) => ({ user: c.user, listenKey: c.listenKey })),
    drop() {
      for (const c of [...clients]) {
        clients.delete(c)
        c.ws.terminate()
      }
    },
    close() {
      closed = true
      clearInterval(ticker)
      clearInterval(pinger)
      for (const c of [...clients]) {
        clients.delete(c)
        c.ws.terminate()
      }
      wss.close()
    },
  }
}

/** The ACCOUNT_UPDATE from `was` to `now`; null when nothing changed. */
function difference(was: Seen, now: Seen, t: number): object | null {
  const changed: object[] = []
  const symbols = new Set([...was.positions.keys(), ...now.positions.keys()])
  for (const s of symbols) {
    const a = was.positions.get(s)
    const b = now.positions.get(s)
    if (
      a?.size === b?.size &&
      a?.entryPrice === b?.entryPrice &&
      a?.marginMode === b?.marginMode
    ) {
      continue
    }
    changed.push(positionRow(s, b))
  }
  const balance = was.collateral !== now.collateral
  if (changed.length === 0 && !balance) return null
  const funded = now.fundingRows > was.fundingRows
  const reason =
    changed.length > 0 ? 'ORDER' : funded ? 'FUNDING_FEE' : 'DEPOSIT'
  if (reason === 'FUNDING_FEE') {
    // an isolated position's funding names that position too
    for (const p of now.positions.values()) {
      if (p.marginMode === 'isolated') changed.push(positionRow(p.market, p))
    }
  }
  return {
    e: 'ACCOUNT_UPDATE',
    E: t,
    T: t,
    a: {
      m: reason,
      B: [
        {
          a: 'USDT',
          wb: now.collateral,
          cw: now.collateral,
          bc: decString(dec(now.collateral).sub(was.collateral)),
        },
      ],
      P: changed,
    },
  }
}

function positionRow(symbol: string, p: VenuePosition | undefined) {
  return {
    s: symbol,
    pa: p?.size ?? '0',
    ep: p?.entryPrice ?? '0',
    up: p ? decString(dec(p.markPrice).sub(p.entryPrice).mul(p.size)) : '0',
    mt: p?.marginMode ?? 'cross',
    iw: '0',
    ps: 'BOTH',
  }
}

function refuse(socket: Duplex, status: number, text: string) {
  socket.once('finish', () => socket.destroy())
  socket.end(
    `HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
  )
}
