/**
 * Hyperliquid's WebSocket market streams over the simulated engine, served
 * at `/ws` on the fake's HTTP server.
 *
 * Wire format, as the sources give it:
 * - docs `for-developers/api/websocket/subscriptions`: a request is
 *   `{"method":"subscribe","subscription":{...}}`; the server acknowledges
 *   with `{"channel":"subscriptionResponse","data":...}` and then sends
 *   `{"channel":"<type>","data":...}`; `allMids` data is `{mids}`.
 * - nktkas/hyperliquid `src/transport/websocket/_hyperliquidEventTarget.ts`
 *   and `_postRequest.ts`: the acknowledgement's data is the request itself
 *   (`{method, subscription}`), errors come as `{"channel":"error","data":
 *   "<text>"}` such as `Already subscribed: {...}`, `Invalid subscription:
 *   {...}`, `Already unsubscribed: {...}`; a ping is answered
 *   `{"channel":"pong"}`.
 * - nktkas `src/api/subscription/_methods/activeAssetCtx.ts` (+ info
 *   `commonSchemas.ts` PerpAssetCtxSchema): `activeAssetCtx {coin}` sends
 *   `{coin, ctx}` with the perp context of `metaAndAssetCtxs` (decimal
 *   strings); `allMids.ts`: `{type:"allMids", dex?}` sends `{mids, dex?}`
 *   (`dex` only for a builder dex).
 * - hyperliquid-python-sdk `hyperliquid/websocket_manager.py`: `ping` is
 *   `{"method":"ping"}`, the channel of a perp ctx is `activeAssetCtx`.
 * - nktkas `src/transport/websocket/_keepAlive.ts`: the server closes a
 *   connection silent for ~60 s (not enforced here).
 * - docs subscriptions page and nktkas `subscription/_methods/
 *   clearinghouseState.ts`: `{type:"clearinghouseState", user, dex?}`
 *   sends `{dex, user, clearinghouseState}`, the `/info` answer of the
 *   same name. The docs' limits page: at most 10 distinct users across an
 *   IP's user subscriptions; the 11th is answered on the `error` channel
 *   (its wording here is [unverified]).
 *
 * Per the venue doc (§13), WebSocket reads do not spend the REST weight
 * budget: nothing here is charged to the fake's rate limiter. Contexts
 * come from the same code as `/info metaAndAssetCtxs` (handleInfo), so the
 * stream and REST always agree. During an engine `outage` nothing is
 * pushed. Unknown methods and unreadable frames are ignored (the venue's
 * answer to them is not documented).
 *
 * @module
 */
import type { IncomingMessage, Server } from 'node:http'
import type { Duplex } from 'node:stream'
import { type WebSocket, WebSocketServer } from 'ws'
import { HL_STREAM_USERS_PER_IP } from '../../hyperliquid/limits/hlLimits.js'
import { isObj } from '../../wire/jsonFields.js'
import { dexOfSymbol, dexUniverse, HlDexError } from './hlDexes.js'
import type { HlFakeState } from './hlFakeState.js'
import { handleInfo } from './hlInfo.js'
import { sampleHlMarks } from './hlMarkCandles.js'
import { fireHlTriggers } from './hlTriggerOrders.js'

interface HlFakeStreams {
  /** terminates every open socket (no close frame), as a network drop */
  drop(): void
  /** open sockets */
  clients(): number
  /** while paused, upgrades are refused (503) and nothing is pushed */
  pause(paused: boolean): void
  /** terminates every socket, stops pushing, closes the server side */
  close(): Promise<void>
}

interface Client {
  readonly ws: WebSocket
  /** the client's IP: user subscriptions are limited per IP */
  readonly ip: string
  /** subscription key → the subscription and the JSON last sent for it */
  readonly subs: Map<string, { readonly sub: Sub; last?: string }>
}

type Sub =
  | { readonly kind: 'activeAssetCtx'; readonly coin: string }
  | { readonly kind: 'allMids'; readonly dex: string }
  | {
      readonly kind: 'clearinghouseState'
      readonly user: string
      readonly dex: string
    }

/**
 * Serves `/ws` on `server` (WebSocket upgrades of other paths are
 * refused) and pushes each subscription's data every `intervalMs`; the
 * first data follows the acknowledgement at once.
 */
export function attachHlFakeStreams(
  server: Server,
  state: HlFakeState,
  intervalMs: number,
): HlFakeStreams {
  const wss = new WebSocketServer({ noServer: true })
  const clients = new Set<Client>()
  let paused = false

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if ((req.url ?? '').split('?')[0] !== '/ws') {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n')
      return
    }
    if (paused) {
      socket.end(
        'HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\n\r\n',
      )
      return
    }
    const ip = req.socket.remoteAddress ?? ''
    wss.handleUpgrade(req, socket, head, (ws) => accept(ws, ip))
  }
  server.on('upgrade', onUpgrade)

  /** the users an IP's user subscriptions name, over all its sockets */
  function usersOf(ip: string): Set<string> {
    const users = new Set<string>()
    for (const c of clients) {
      if (c.ip !== ip) continue
      for (const { sub } of c.subs.values()) {
        if (sub.kind === 'clearinghouseState') users.add(sub.user)
      }
    }
    return users
  }

  function accept(ws: WebSocket, ip: string) {
    const client: Client = { ws, ip, subs: new Map() }
    clients.add(client)
    ws.on('message', (data, isBinary) => {
      if (isBinary) return
      try {
        onFrame(client, data.toString())
      } catch {
        // a frame the fake cannot answer is dropped, never a crash
      }
    })
    ws.on('close', () => clients.delete(client))
    ws.on('error', () => ws.terminate())
  }

  function onFrame(client: Client, text: string) {
    let msg: unknown
    try {
      msg = JSON.parse(text)
    } catch {
      return
    }
    if (!isObj(msg)) return
    if (msg.method === 'ping') {
      send(client, { channel: 'pong' })
      return
    }
    if (msg.method !== 'subscribe' && msg.method !== 'unsubscribe') return
    const subscription = msg.subscription
    const sub = parseSub(subscription)
    const shown = JSON.stringify(subscription ?? null)
    if (!sub) {
      send(client, {
        channel: 'error',
        data: `Invalid subscription: ${shown}`,
      })
      return
    }
    const key = keyOf(sub)
    if (msg.method === 'subscribe') {
      if (client.subs.has(key)) {
        send(client, { channel: 'error', data: `Already subscribed: ${shown}` })
        return
      }
      if (sub.kind === 'clearinghouseState') {
        const users = usersOf(client.ip)
        if (!users.has(sub.user) && users.size >= HL_STREAM_USERS_PER_IP) {
          send(client, {
            channel: 'error',
            data: `Cannot track more than ${HL_STREAM_USERS_PER_IP} total users.`,
          })
          return
        }
      }
      const entry = { sub }
      client.subs.set(key, entry)
      send(client, {
        channel: 'subscriptionResponse',
        data: { method: 'subscribe', subscription },
      })
      push(client, entry, new Map())
      return
    }
    if (!client.subs.delete(key)) {
      send(client, { channel: 'error', data: `Already unsubscribed: ${shown}` })
      return
    }
    send(client, {
      channel: 'subscriptionResponse',
      data: { method: 'unsubscribe', subscription },
    })
  }

  function parseSub(v: unknown): Sub | null {
    if (!isObj(v)) return null
    try {
      if (v.type === 'activeAssetCtx' && typeof v.coin === 'string') {
        const coin = v.coin
        const listed = dexUniverse(state, dexOfSymbol(coin))
        return listed.some((r) => r.symbol === coin)
          ? { kind: 'activeAssetCtx', coin }
          : null
      }
      if (
        v.type === 'clearinghouseState' &&
        isStr(v.user) &&
        /^0x[0-9a-fA-F]{40}$/.test(v.user) &&
        (v.dex === undefined || isStr(v.dex))
      ) {
        const dex = v.dex ?? ''
        dexUniverse(state, dex)
        return { kind: 'clearinghouseState', user: v.user.toLowerCase(), dex }
      }
      if (v.type === 'allMids' && (v.dex === undefined || isStr(v.dex))) {
        const dex = v.dex ?? ''
        dexUniverse(state, dex)
        return { kind: 'allMids', dex }
      }
    } catch (e) {
      if (e instanceof HlDexError) return null
      throw e
    }
    return null
  }

  /** The data of `sub` now; `cache` shares one read per dex in a tick. */
  function dataOf(sub: Sub, cache: Map<string, unknown>): unknown {
    if (sub.kind === 'clearinghouseState') {
      const clearinghouseState = handleInfo(state, {
        type: 'clearinghouseState',
        user: sub.user,
        ...(sub.dex === '' ? {} : { dex: sub.dex }),
      })
      return { dex: sub.dex, user: sub.user, clearinghouseState }
    }
    if (sub.kind === 'allMids') {
      const mids = cached(cache, `allMids:${sub.dex}`, () =>
        handleInfo(state, { type: 'allMids', dex: sub.dex }),
      )
      return sub.dex === '' ? { mids } : { mids, dex: sub.dex }
    }
    const dex = dexOfSymbol(sub.coin)
    const [meta, ctxs] = cached(cache, `ctxs:${dex}`, () =>
      handleInfo(state, { type: 'metaAndAssetCtxs', dex }),
    ) as [{ universe: { name: string }[] }, unknown[]]
    const i = meta.universe.findIndex((u) => u.name === sub.coin)
    return { coin: sub.coin, ctx: ctxs[i] }
  }

  function push(
    client: Client,
    entry: { readonly sub: Sub; last?: string },
    cache: Map<string, unknown>,
  ) {
    if (paused || state.exchange.faults().outage) return
    const data = dataOf(entry.sub, cache)
    // sent every interval, changed or not, as the venue sends each block's:
    // a quiet stream is a dead one to its readers
    entry.last = JSON.stringify(data)
    send(client, { channel: entry.sub.kind, data })
  }

  const timer = setInterval(() => {
    if (clients.size === 0) return
    const cache = new Map<string, unknown>()
    try {
      // streamed reads see triggers fired and marks sampled, as /info does
      sampleHlMarks(state)
      fireHlTriggers(state)
      for (const client of clients) {
        for (const entry of client.subs.values()) push(client, entry, cache)
      }
    } catch {
      // an engine read that failed is tried again on the next tick
    }
  }, intervalMs)
  timer.unref()

  return {
    drop() {
      for (const c of clients) c.ws.terminate()
    },
    clients: () => clients.size,
    pause(p) {
      paused = p
    },
    close() {
      clearInterval(timer)
      server.off('upgrade', onUpgrade)
      for (const c of clients) c.ws.terminate()
      clients.clear()
      return new Promise((resolve) => wss.close(() => resolve()))
    },
  }
}

function send(client: Client, msg: unknown) {
  if (client.ws.readyState === client.ws.OPEN) {
    client.ws.send(JSON.stringify(msg))
  }
}

function keyOf(sub: Sub): string {
  switch (sub.kind) {
    case 'allMids':
      return `allMids|${sub.dex}`
    case 'clearinghouseState':
      return `user|${sub.user}|${sub.dex}`
    default:
      return `ctx|${sub.coin}`
  }
}

function cached<T>(cache: Map<string, unknown>, key: string, read: () => T) {
  if (!cache.has(key)) cache.set(key, read())
  return cache.get(key) as T
}

function isStr(v: unknown): v is string {
  return typeof v === 'string'
}
