/**
 * Hyperliquid marks, funding and impact prices over its WebSocket, the
 * primary source of the adapter's quotes (REST `metaAndAssetCtxs` is the
 * fallback when a symbol's values are missing or old).
 *
 * Wire format, as the sources give it:
 * - docs `for-developers/api/websocket/subscriptions`: subscribe with
 *   `{"method":"subscribe","subscription":{"type":"activeAssetCtx",
 *   "coin":"BTC"}}`; the server acknowledges with
 *   `{"channel":"subscriptionResponse","data":{method, subscription}}`,
 *   then sends `{"channel":"activeAssetCtx","data":{"coin","ctx"}}`.
 * - nktkas/hyperliquid `src/api/subscription/_methods/activeAssetCtx.ts`
 *   with info `_base/commonSchemas.ts` (PerpAssetCtxSchema): `ctx` holds
 *   `markPx`, `funding`, `impactPxs` (`[bid, ask]` or null), `midPx`,
 *   `oraclePx`, `openInterest`, `premium`, `prevDayPx`, `dayNtlVlm`,
 *   `dayBaseVlm`, as decimal strings: the perp context of REST
 *   `metaAndAssetCtxs`, parsed the same way here. Spot contexts come on
 *   `activeSpotAssetCtx` (python SDK `websocket_manager.py`) and are not
 *   read.
 * - nktkas `src/transport/websocket/_keepAlive.ts` and the venue doc §13:
 *   the server drops a connection silent for about a minute; a
 *   `{"method":"ping"}` every 30 s is answered `{"channel":"pong"}`.
 * - A new connection has no subscriptions: nktkas
 *   `_subscriptionManager.ts` sends them again on every open, as here.
 *
 * Frames that are not JSON (older servers greeted with `Websocket
 * connection established.`, python SDK), other channels and malformed
 * contexts are ignored.
 *
 * @module
 */
import { decField, isObj } from '../../wire/jsonFields.js'
import type {
  MarketStream,
  MarketStreamOptions,
  StreamQuote,
} from '../../wire/marketStream.js'
import { openReconnectingSocket } from '../../wire/reconnectingSocket.js'

export { hlWsUrl } from './hlWsUrl.js'

/**
 * `url`: e.g. `hlWsUrl(baseUrl)` (`wss://api.hyperliquid.xyz/ws`);
 * `silentMs` @default 60_000
 */
interface HlMarketStreamOptions extends MarketStreamOptions {
  /** keep-alive ping interval @default 30_000 */
  readonly pingEveryMs?: number | undefined
}

const PING = JSON.stringify({ method: 'ping' })

/** A user's main-dex clearinghouse state as the stream last sent it. */
export interface HlUserState {
  /** the `/info clearinghouseState` answer, unparsed */
  readonly state: unknown
  /** Unix ms it arrived */
  readonly at: number
}

/**
 * Hyperliquid's stream: markets, and the main-dex clearinghouse state of
 * the users watched (at most 10 distinct users per IP, the venue's limit:
 * the caller picks which).
 */
export interface HlStream extends MarketStream {
  /** Subscribes `clearinghouseState` for `user`; idempotent. */
  watchUser(user: string): void
  /** Unsubscribes `user` and forgets its state. */
  unwatchUser(user: string): void
  /** the users watched */
  watchedUsers(): readonly string[]
  userState(user: string): HlUserState | undefined
}

/**
 * Opens Hyperliquid's stream: `watch(coin)` subscribes
 * `activeAssetCtx` for it (main-dex coins such as `BTC` and builder-dex
 * ones such as `xyz:TSLA`), `latest(coin)` gives its mark (`markPx`),
 * hourly funding rate (`funding`) and impact prices (`impactPxs`, as
 * bid/ask) with the time they arrived; `watchUser(user)` subscribes the
 * user's main-dex `clearinghouseState` (`{dex, user, clearinghouseState}`
 * frames, nktkas `subscription/_methods/clearinghouseState.ts`), kept
 * as `userState(user)`.
 * @example
 * const stream = createHlMarketStream({ url: hlWsUrl('https://api.hyperliquid.xyz') })
 * stream.watch('BTC') // later: stream.latest('BTC')?.mark
 */
export function createHlMarketStream(options: HlMarketStreamOptions): HlStream {
  const now = options.now ?? Date.now
  const watched = new Set<string>()
  const quotes = new Map<string, StreamQuote>()
  const users = new Set<string>()
  const userStates = new Map<string, HlUserState>()

  const socket = openReconnectingSocket({
    url: options.url,
    onOpen(send) {
      for (const coin of watched) send(subscribeFrame(coin))
      for (const user of users) send(userFrame('subscribe', user))
    },
    onMessage(text) {
      try {
        onFrame(text)
      } catch {
        // a frame we cannot read is dropped; the socket stays up
      }
    },
    ping: { text: PING, everyMs: options.pingEveryMs ?? 30_000 },
    silentMs: options.silentMs,
    minDelayMs: options.minDelayMs,
    maxDelayMs: options.maxDelayMs,
    onState: options.onState,
  })

  function onFrame(text: string) {
    let msg: unknown
    try {
      msg = JSON.parse(text)
    } catch {
      return
    }
    if (!isObj(msg)) return
    if (msg.channel === 'clearinghouseState') {
      const data = msg.data
      if (!isObj(data) || typeof data.user !== 'string') return
      const user = data.user.toLowerCase()
      if ((data.dex ?? '') !== '' || !users.has(user)) return
      userStates.set(user, { state: data.clearinghouseState, at: now() })
      return
    }
    if (msg.channel !== 'activeAssetCtx') return
    const data = msg.data
    if (!isObj(data) || typeof data.coin !== 'string') return
    if (!watched.has(data.coin)) return
    const quote = parseCtx(data.ctx, now())
    if (quote) quotes.set(data.coin, quote)
  }

  return {
    watch(symbol) {
      if (watched.has(symbol)) return
      watched.add(symbol)
      // dropped when not open: onOpen subscribes every watched coin
      socket.send(subscribeFrame(symbol))
    },
    latest: (symbol) => quotes.get(symbol),
    watchUser(user) {
      const u = user.toLowerCase()
      if (users.has(u)) return
      users.add(u)
      socket.send(userFrame('subscribe', u))
    },
    unwatchUser(user) {
      const u = user.toLowerCase()
      if (!users.delete(u)) return
      userStates.delete(u)
      socket.send(userFrame('unsubscribe', u))
    },
    watchedUsers: () => [...users],
    userState: (user) => userStates.get(user.toLowerCase()),
    state: () => socket.state(),
    close: () => socket.close(),
  }
}

function userFrame(method: 'subscribe' | 'unsubscribe', user: string) {
  return JSON.stringify({
    method,
    subscription: { type: 'clearinghouseState', user },
  })
}

function subscribeFrame(coin: string): string {
  return JSON.stringify({
    method: 'subscribe',
    subscription: { type: 'activeAssetCtx', coin },
  })
}

/** A perp context as the REST parser (`hlUniverse.ts`) reads it. */
function parseCtx(ctx: unknown, at: number): StreamQuote | null {
  if (!isObj(ctx)) return null
  const mark = decField(ctx.markPx)
  const fundingRate = decField(ctx.funding)
  if (mark === null || fundingRate === null) return null
  if (Array.isArray(ctx.impactPxs) && ctx.impactPxs.length === 2) {
    const bid = decField(ctx.impactPxs[0])
    const ask = decField(ctx.impactPxs[1])
    if (bid !== null && ask !== null) return { mark, fundingRate, bid, ask, at }
  }
  return { mark, fundingRate, at }
}
