import type { StreamedAccount } from '@dn/core'
import {
  openReconnectingSocket,
  type SocketState,
} from '../../wire/reconnectingSocket.js'
import {
  type LighterSigningKey,
  lighterCredential,
} from '../adapter/lighterCredential.js'
import type { Json } from '../adapter/lighterWireValue.js'
import { parseLighterAccountFrame } from './lighterAccountFrame.js'
import {
  LIGHTER_STREAMED_ACCOUNTS_MAX,
  LIGHTER_WS_LIMITS,
} from './lighterWsLimits.js'

/**
 * Lighter's `account_all/{account}` channel for the accounts the monitor
 * watches: each account's positions as the venue pushes them, so a
 * streamed account's positions cost no REST request.
 *
 * Wire format (sources; **[unverified]** marks what no source settles):
 * - Subscribe `{"type":"subscribe","channel":"account_all/<index>"}` on
 *   `<REST base>/stream` (apidocs `websocket-reference` "Account All";
 *   lighter-python `lighter/ws_client.py` and `examples/ws.py`).
 * - Auth: the docs' Account All example carries no `auth` field, while
 *   `account_all_orders`, `account_all_positions`, `account_market`, ...
 *   show `"auth": "{AUTH_TOKEN}"`; lighter-python subscribes without one.
 *   NautilusTrader (`websocket/messages.rs` `requires_auth`) sends the
 *   token on `account_all` too. We send it (`auth` = the account's auth
 *   token, as for authenticated REST reads): harmless if the channel is
 *   public, needed if it is not. Whether the venue ignores a token on
 *   a public channel, and whether it ends a subscription when its token
 *   expires, is **[unverified]**; a fresh token (`authToken`, renewed
 *   before expiry by the adapter's cache) is sent on every (re)subscribe.
 * - Frames: `subscribed/account_all` (the whole account) then
 *   `update/account_all`, channel `account_all:<index>`, `account`,
 *   `positions: {"<market id>": Position}` plus trades, funding, assets,
 *   volumes (lighter-python `ws_client.py` frame types; apidocs). An
 *   update carries only the markets that changed (docs.rs
 *   `df-lighter-core` `live/account/holdings.rs`); a row with a zero
 *   `position` is a closed position (**[unverified]**: we drop it).
 *   "On every new subscription message sent, you ... receive a new
 *   snapshot" (apidocs).
 * - Position fields: `market_id, symbol, initial_margin_fraction, sign,
 *   position, avg_entry_price, position_value, unrealized_pnl,
 *   realized_pnl, liquidation_price, margin_mode, allocated_margin, ...`
 *   (apidocs Position JSON): every field `VenuePosition` needs, the
 *   liquidation price included, so positions are served from the stream
 *   alone. Whether the venue pushes an update when only marks move (the
 *   liquidation price of a cross position moves with them) is
 *   **[unverified]**.
 * - Refusals: `{"type":"error","code",...}` (NautilusTrader fixture
 *   `ws_order_book_subscribe_failed.json`); codes in `lighterWsLimits.ts`.
 * - Keep-alive as the market stream: `{"type":"ping"}` every `pingMs`,
 *   a server ping answered `{"type":"pong"}`. That the server answers
 *   our ping with a pong is [source] lighter-python (`pong` frames
 *   handled) only; without it an idle account would count as quiet and
 *   be read by REST, never served stale.
 *
 * Limits (`lighterWsLimits.ts`): at most {@link LIGHTER_STREAMED_ACCOUNTS_MAX}
 * accounts, all on one connection (500 subscriptions and 500 accounts per
 * connection); subscribes and unsubscribes are paced to half the IP's 200
 * messages a minute with at most half its 50 inflight unanswered, so a
 * reconnect resubscribes the busiest accounts first and never bursts past
 * the venue's limits.
 *
 * An account counts as streamed (`live`) while its subscription is
 * answered with a snapshot on the current connection and the connection
 * was heard from within `staleMs`; a dropped socket ends that for every
 * account until the reconnect (with backoff) resubscribes them.
 *
 * @module
 */

export interface LighterAccountStreamsOptions {
  /** `wss://…/stream`, see `lighterWsUrl` */
  readonly url: string
  /** the account's auth token (cached and renewed by the adapter) */
  authToken(key: LighterSigningKey): string
  /** @default Date.now */
  readonly now?: (() => number) | undefined
  /**
   * ms since the connection was last heard from (any frame, pongs
   * included) after which no account counts as streamed
   * @default 25_000: two and a half pings, so one lost pong is no gap
   */
  readonly staleMs?: number | undefined
  /** @default 10_000 (Lighter drops a client silent for 2 minutes) */
  readonly pingMs?: number | undefined
  /** @default 60_000 */
  readonly silentMs?: number | undefined
  /** first reconnect delay, doubling per failure @default 500 */
  readonly minDelayMs?: number | undefined
  /** @default 30_000 */
  readonly maxDelayMs?: number | undefined
  /** @default LIGHTER_STREAMED_ACCOUNTS_MAX */
  readonly maxAccounts?: number | undefined
  /**
   * ms before a refused subscription or an unresolved credential is
   * tried again @default 30_000
   */
  readonly retryMs?: number | undefined
  onState?(state: SocketState): void
}

/** A streamed account's positions, as the venue last reported them. */
export interface LighterStreamedPositions {
  readonly accountIndex: number
  /** `Position` rows, one per market with a position */
  readonly rows: readonly Json[]
  /** Unix ms the connection was last heard from */
  readonly at: number
}

export interface LighterAccountStreams {
  /** The accounts to stream, busiest first: the first `maxAccounts`. */
  follow(accounts: readonly StreamedAccount[]): void
  /** owners currently followed (lowercased) */
  followed(): string[]
  /** `owner`'s positions while its stream is live, else undefined */
  live(owner: string): LighterStreamedPositions | undefined
  state(): SocketState
  close(): void
}

type Phase = 'idle' | 'sent' | 'live' | 'refused'

interface Entry {
  readonly owner: string
  readonly credential: StreamedAccount['credential']
  key?: LighterSigningKey
  resolving: boolean
  failedAt?: number
  phase: Phase
  refusedAt?: number
  rows: Map<number, Json>
}

const PING = JSON.stringify({ type: 'ping' })
const PONG = JSON.stringify({ type: 'pong' })
/** half the IP's budget: the market stream and other processes share it */
const SENDS_PER_MINUTE = LIGHTER_WS_LIMITS.messagesPerMinute / 2
const INFLIGHT_MAX = LIGHTER_WS_LIMITS.inflight / 2
const MINUTE_MS = 60_000
const PUMP_MS = 250

/**
 * Opens the account stream of one Lighter deployment; it reconnects and
 * resubscribes by itself until `close()`.
 * @example
 * const streams = createLighterAccountStreams({
 *   url: lighterWsUrl(baseUrl), authToken: (key) => token(key) })
 * streams.follow(accounts)
 * streams.live(owner)?.rows
 */
export function createLighterAccountStreams(
  options: LighterAccountStreamsOptions,
): LighterAccountStreams {
  const now = options.now ?? Date.now
  const staleMs = options.staleMs ?? 25_000
  const retryMs = options.retryMs ?? 30_000
  const maxAccounts = options.maxAccounts ?? LIGHTER_STREAMED_ACCOUNTS_MAX
  const entries = new Map<string, Entry>()
  const byIndex = new Map<number, Entry>()
  /** accounts to unsubscribe, in order */
  const leaving: number[] = []
  /** send times of subscribes and unsubscribes within the last minute */
  const sent: number[] = []
  let heardAt = 0
  let closed = false

  const open = () => socket.state() === 'open'

  function mayDrop(e: Entry) {
    if (e.key && byIndex.get(e.key.accountIndex) === e) {
      byIndex.delete(e.key.accountIndex)
    }
  }

  function resolve(e: Entry) {
    e.resolving = true
    e.credential()
      .then((cred) => {
        const key = lighterCredential(cred)
        if (entries.get(e.owner) !== e) return
        mayDrop(e)
        e.key = key
        e.failedAt = undefined
        byIndex.set(key.accountIndex, e)
        pump()
      })
      .catch(() => {
        // no usable credential: read by REST, tried again after retryMs
        e.failedAt = now()
      })
      .finally(() => {
        e.resolving = false
      })
  }

  /** sends one paced frame when the budget allows; false when it does not */
  function spend(frame: object): boolean {
    const t = now()
    while (sent.length > 0 && t - (sent[0] ?? 0) >= MINUTE_MS) sent.shift()
    if (!open() || sent.length >= SENDS_PER_MINUTE) return false
    socket.send(JSON.stringify(frame))
    sent.push(t)
    return true
  }

  /** unsubscribes, then subscribes the busiest idle accounts first */
  function pump() {
    if (closed || !open()) return
    while (leaving.length > 0) {
      const account = leaving[0] as number
      if (!spend({ type: 'unsubscribe', channel: `account_all/${account}` })) {
        return
      }
      leaving.shift()
    }
    let inflight = 0
    for (const e of entries.values()) if (e.phase === 'sent') inflight++
    const t = now()
    for (const e of entries.values()) {
      if (inflight >= INFLIGHT_MAX) return
      if (e.phase === 'refused' && t - (e.refusedAt ?? 0) >= retryMs) {
        e.phase = 'idle'
      }
      if (e.phase !== 'idle' || !e.key) continue
      const frame = {
        type: 'subscribe',
        channel: `account_all/${e.key.accountIndex}`,
        auth: options.authToken(e.key),
      }
      if (!spend(frame)) return
      e.phase = 'sent'
      inflight++
    }
  }

  function onFrame(frame: unknown) {
    if (typeof frame === 'object' && frame !== null) {
      if ((frame as { type?: unknown }).type === 'ping') {
        socket.send(PONG)
        return
      }
    }
    const f = parseLighterAccountFrame(frame)
    if (f === null || f.account === null) return
    const e = byIndex.get(f.account)
    if (!e) return
    if (f.kind === 'refused') {
      e.phase = 'refused'
      e.refusedAt = now()
      e.rows.clear()
      return
    }
    if (f.kind === 'snapshot') {
      e.rows = new Map()
      e.phase = 'live'
      pump()
    } else if (e.phase !== 'live') {
      // an update before the snapshot cannot be applied to anything
      return
    }
    for (const [market, row] of f.positions) {
      if (isFlat(row)) e.rows.delete(market)
      else e.rows.set(market, row)
    }
  }

  const socket = openReconnectingSocket({
    url: options.url,
    onOpen: () => {
      heardAt = now()
      // a new connection holds no subscription: every account again
      for (const e of entries.values()) {
        if (e.phase !== 'refused') e.phase = 'idle'
      }
      leaving.length = 0
      queueMicrotask(pump)
    },
    onMessage(text) {
      heardAt = now()
      try {
        onFrame(JSON.parse(text))
      } catch {
        // not JSON, or a value the parser refuses: ignored
      }
    },
    ping: { text: PING, everyMs: options.pingMs ?? 10_000 },
    silentMs: options.silentMs,
    minDelayMs: options.minDelayMs,
    maxDelayMs: options.maxDelayMs,
    onState(s) {
      if (s !== 'open') {
        for (const e of entries.values()) {
          if (e.phase === 'sent' || e.phase === 'live') e.phase = 'idle'
          e.rows.clear()
        }
      }
      options.onState?.(s)
    },
  })

  const pumper = setInterval(pump, PUMP_MS)
  pumper.unref?.()

  return {
    follow(accounts) {
      if (closed) return
      const wanted = new Map<string, StreamedAccount>()
      for (const a of accounts) {
        if (wanted.size >= maxAccounts) break
        const owner = a.owner.toLowerCase()
        if (!wanted.has(owner)) wanted.set(owner, a)
      }
      for (const [owner, e] of entries) {
        if (wanted.has(owner)) continue
        entries.delete(owner)
        mayDrop(e)
        if (e.key && (e.phase === 'sent' || e.phase === 'live')) {
          leaving.push(e.key.accountIndex)
        }
      }
      const t = now()
      for (const [owner, a] of wanted) {
        let e = entries.get(owner)
        if (!e) {
          e = {
            owner,
            credential: () => a.credential(),
            resolving: false,
            phase: 'idle',
            rows: new Map(),
          }
          entries.set(owner, e)
          resolve(e)
        } else if (!e.key && !e.resolving && t - (e.failedAt ?? 0) >= retryMs) {
          resolve(e)
        }
      }
      pump()
    },
    followed: () => [...entries.keys()],
    live(owner) {
      const e = entries.get(owner.toLowerCase())
      if (!e?.key || e.phase !== 'live' || !open()) return undefined
      if (now() - heardAt > staleMs) return undefined
      return {
        accountIndex: e.key.accountIndex,
        rows: [...e.rows.values()],
        at: heardAt,
      }
    },
    state: () => socket.state(),
    close() {
      closed = true
      clearInterval(pumper)
      socket.close()
    },
  }
}

/** a row whose `position` is zero: the market's position was closed */
function isFlat(row: Json): boolean {
  const p = row.position
  return (typeof p === 'string' || typeof p === 'number') && Number(p) === 0
}
