import type {
  MarketStream,
  MarketStreamOptions,
  StreamQuote,
} from '../../wire/marketStream.js'
import { openReconnectingSocket } from '../../wire/reconnectingSocket.js'
import {
  decField,
  intField,
  isObj,
  type Json,
} from '../adapter/lighterWireValue.js'
import { hourlyFromStreamRate } from './lighterFundingUnits.js'

/**
 * Lighter's `market_stats/all` WebSocket channel as a {@link MarketStream}:
 * the mark and funding rate of every perp, so REST is only the fallback.
 *
 * Wire format ([source], read not executed):
 * - URL `<REST base>/stream` with `wss://` (apidocs `websocket-reference`:
 *   `wss://mainnet.zklighter.elliot.ai/stream`; lighter-python
 *   `lighter/ws_client.py` builds `wss://{host}/stream`).
 * - Subscribe `{"type":"subscribe","channel":"market_stats/all"}`
 *   (apidocs `websocket-reference` "Market Stats", `market-data` example,
 *   which subscribes in `onopen`). lighter-python waits for the server's
 *   `{"type":"connected"}` first; the docs' example does not, nor do we.
 * - Frames: `{"channel":"market_stats:all","market_stats":{...},
 *   "timestamp":<ms>,"type":"subscribed/market_stats"|"update/market_stats"}`;
 *   `market_stats` is a map keyed by market id on the `all` channel, one
 *   object on `market_stats:<id>` (NautilusTrader
 *   `crates/adapters/lighter/src/websocket/messages.rs`
 *   `LighterMarketStatsPayload::{All, One}`, test data
 *   `ws_market_stats_update_all.json`); an update of `all` carries only
 *   the markets that moved (docs.rs `df-lighter-core`
 *   `src/live/market/stats.rs`). Fields: `market_id`, `symbol`,
 *   `index_price`, `mark_price`, `last_trade_price` (strings),
 *   `current_funding_rate`, `funding_rate` (strings), `funding_timestamp`
 *   (ms), daily volumes as JSON floats (apidocs response structure).
 * - `current_funding_rate` is the rate accruing for the coming hourly
 *   settlement, `funding_rate` the last settled one and
 *   `funding_timestamp` that settlement's time (NautilusTrader
 *   `parse_ws_funding_rate_update`; Allium's Lighter table: "Current live
 *   funding rate estimate" / "Last settled funding rate"). REST
 *   `funding-rates` gives the current rate, so `current_funding_rate` is
 *   the one used, converted from percent per hour to the hourly fraction
 *   the service works in (`lighterFundingUnits.ts`, **[unverified]** live).
 * - Keep-alive: the client sends something at least every 2 minutes,
 *   `{"type":"ping"}` (apidocs `market-data`, which pings every 60 s);
 *   a server `{"type":"ping"}` is answered `{"type":"pong"}`
 *   (lighter-python `ws_client.py`).
 *
 * Values are stored per market id; `latest(symbol)` maps ids to symbols
 * through `symbolOf` when asked, so the market list may load later than
 * the first frames. Every frame of the `all` channel also renews the `at`
 * of the markets it leaves out: the subscription is alive and they have
 * not moved. Malformed frames and fields are ignored; `onMessage` never
 * throws.
 *
 * @module
 */

/** `url`: `wss://…/stream`; see {@link lighterWsUrl} */
interface LighterMarketStreamOptions extends MarketStreamOptions {
  /** our symbol of a Lighter market id (from `orderBookDetails`) */
  symbolOf(marketId: number): string | undefined
  /** @default 60_000 (Lighter drops a client silent for 2 minutes) */
  readonly pingMs?: number | undefined
}

const LIGHTER_MARKET_STATS_ALL = 'market_stats/all'
const SUBSCRIBE = JSON.stringify({
  type: 'subscribe',
  channel: LIGHTER_MARKET_STATS_ALL,
})
const PING = JSON.stringify({ type: 'ping' })
const PONG = JSON.stringify({ type: 'pong' })
const STATS_FRAMES = new Set(['subscribed/market_stats', 'update/market_stats'])

interface Held {
  mark?: string
  fundingRate?: string
  at: number
}

/**
 * Opens Lighter's `market_stats/all` stream; it reconnects and
 * subscribes again by itself until `close()`.
 * @example
 * const stream = createLighterMarketStream({
 *   url: lighterWsUrl('https://mainnet.zklighter.elliot.ai'),
 *   symbolOf: (id) => markets.find((m) => m.marketId === id)?.symbol,
 * })
 */
export function createLighterMarketStream(
  options: LighterMarketStreamOptions,
): MarketStream {
  const now = options.now ?? Date.now
  const byId = new Map<number, Held>()
  const idBySymbol = new Map<string, number>()

  function apply(marketId: number, s: Json, at: number) {
    const held: Held = byId.get(marketId) ?? { at }
    const mark = decField(s.mark_price)
    if (mark !== null) held.mark = mark
    const rate = decField(s.current_funding_rate)
    if (rate !== null) held.fundingRate = hourlyFromStreamRate(rate)
    held.at = at
    byId.set(marketId, held)
  }

  function onFrame(frame: unknown, send: (text: string) => void) {
    if (!isObj(frame)) return
    if (frame.type === 'ping') {
      send(PONG)
      return
    }
    if (typeof frame.type !== 'string' || !STATS_FRAMES.has(frame.type)) return
    const stats = frame.market_stats
    if (!isObj(stats)) return
    const at = now()
    if ('market_id' in stats && !isObj(stats.market_id)) {
      const id = intField(stats.market_id)
      if (id !== null) apply(id, stats, at)
      return
    }
    for (const [key, s] of Object.entries(stats)) {
      if (!isObj(s)) continue
      const id = intField(s.market_id ?? key)
      if (id !== null) apply(id, s, at)
    }
    if (frame.channel === 'market_stats:all') {
      for (const held of byId.values()) held.at = at
    }
  }

  const socket = openReconnectingSocket({
    url: options.url,
    onOpen: (send) => send(SUBSCRIBE),
    onMessage(text) {
      try {
        onFrame(JSON.parse(text), (t) => socket.send(t))
      } catch {
        // not JSON, or a value the parsers refuse: ignored
      }
    },
    ping: { text: PING, everyMs: options.pingMs ?? 60_000 },
    silentMs: options.silentMs,
    minDelayMs: options.minDelayMs,
    maxDelayMs: options.maxDelayMs,
    onState: options.onState,
  })

  function idOf(symbol: string): number | undefined {
    const cached = idBySymbol.get(symbol)
    if (cached !== undefined && options.symbolOf(cached) === symbol) {
      return cached
    }
    for (const id of byId.keys()) {
      if (options.symbolOf(id) === symbol) {
        idBySymbol.set(symbol, id)
        return id
      }
    }
    return undefined
  }

  return {
    watch() {
      // market_stats/all already carries every market
    },
    latest(symbol): StreamQuote | undefined {
      const id = idOf(symbol)
      const held = id === undefined ? undefined : byId.get(id)
      if (held?.mark === undefined) return undefined
      return {
        mark: held.mark,
        ...(held.fundingRate === undefined
          ? {}
          : { fundingRate: held.fundingRate }),
        at: held.at,
      }
    },
    state: () => socket.state(),
    close: () => socket.close(),
  }
}

/**
 * Lighter's WebSocket URL for a REST base URL: the same host under
 * `/stream`, `https` → `wss`, `http` → `ws`.
 * @example lighterWsUrl('https://mainnet.zklighter.elliot.ai')
 * // 'wss://mainnet.zklighter.elliot.ai/stream'
 */
export function lighterWsUrl(httpBaseUrl: string): string {
  const u = new URL(httpBaseUrl)
  const scheme: Record<string, string> = {
    'https:': 'wss:',
    'http:': 'ws:',
    'wss:': 'wss:',
    'ws:': 'ws:',
  }
  const ws = scheme[u.protocol]
  if (ws === undefined) {
    throw new RangeError(`not an http(s) URL: ${httpBaseUrl}`)
  }
  const path = `${u.pathname.replace(/\/+$/, '')}/stream`
  return `${ws}//${u.host}${path}`
}
