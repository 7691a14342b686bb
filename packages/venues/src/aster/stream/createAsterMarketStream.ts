/**
 * Aster's market data over its WebSocket market streams: marks, funding
 * rates, next funding times and best bid/ask of every symbol, so REST
 * (`premiumIndex`, `ticker/bookTicker`) is only the fallback.
 *
 * Sources:
 * - asterdex/api-docs @ 265e024 (2026-06-30)
 *   `V3(Recommended)/EN/aster-finance-futures-api-v3.md` "Websocket Market
 *   Streams": base `wss://fstream.asterdex.com`; raw `/ws/<streamName>`;
 *   combined `/stream?streams=<a>/<b>` wrapped as `{"stream","data"}`;
 *   runtime `{"method":"SUBSCRIBE","params":[…],"id":n}` →
 *   `{"result":null,"id":n}`; a connection lives 24 h; the server pings
 *   every 5 min and drops a connection with no pong for 15 min;
 *   "Mark Price Stream for All market" `!markPrice@arr[@1s]` (1 s or 3 s):
 *   an array of `{e:"markPriceUpdate", E, s, p: mark, i: index, P, r:
 *   funding rate, T: next funding time}`; "All Book Tickers Stream"
 *   `!bookTicker` (real time): one `{e:"bookTicker", u, E, T, s, b, B, a,
 *   A}` per update. Same content: aster-skills-hub `aster-api-websocket-v3`.
 * - ccxt `ts/src/pro/aster.ts`: the same URLs and events (sample frames
 *   from the live venue with string decimals, `T`/`E` as numbers); it
 *   unwraps `data` and dispatches on `e`, as here.
 * - Pongs: undici's WebSocket (`lib/web/websocket/receiver.js`) answers
 *   every ping frame with a pong by itself, so no keep-alive is sent.
 *
 * Unverified: the testnet stream host (the testnet doc names
 * `wss://fstream.asterdex-testnet.com` in most places and
 * `wss://fstream5.asterdex-testnet.com` in its market-stream section);
 * the host for `fapi3.asterdex.com` (assumed the same `fstream`).
 *
 * @module
 */
import { decField, intField, isObj } from '../../wire/jsonFields.js'
import type {
  MarketStream,
  MarketStreamOptions,
  StreamQuote,
} from '../../wire/marketStream.js'
import { openReconnectingSocket } from '../../wire/reconnectingSocket.js'

/** The streams read: every symbol's mark and funding, every best bid/ask. */
const ASTER_MARKET_STREAMS = ['!markPrice@arr@1s', '!bookTicker'] as const

/**
 * `url`: the WebSocket base, e.g. `wss://fstream.asterdex.com` (see
 * asterWsUrl); `silentMs` @default 10_000 (marks come every second)
 */
type AsterMarketStreamOptions = MarketStreamOptions

/** One `markPriceUpdate`, normalized. */
interface AsterMarkUpdate {
  readonly symbol: string
  readonly mark: string
  readonly fundingRate: string | undefined
  readonly nextFundingAt: number | undefined
}

/** One `bookTicker`, normalized. */
interface AsterBookUpdate {
  readonly symbol: string
  readonly bid: string
  readonly ask: string
}

/**
 * The updates one frame carries, combined (`{stream, data}`) or raw; an
 * unreadable frame or event carries none. Never throws.
 */
export function readAsterStreamFrame(text: string): {
  marks: AsterMarkUpdate[]
  books: AsterBookUpdate[]
} {
  const marks: AsterMarkUpdate[] = []
  const books: AsterBookUpdate[] = []
  let msg: unknown
  try {
    msg = JSON.parse(text)
  } catch {
    return { marks, books }
  }
  const payload = isObj(msg) && 'data' in msg ? msg.data : msg
  for (const ev of Array.isArray(payload) ? payload : [payload]) {
    if (!isObj(ev) || typeof ev.s !== 'string' || ev.s === '') continue
    const symbol = ev.s.toUpperCase()
    if (ev.e === 'markPriceUpdate') {
      const mark = decField(ev.p)
      if (mark === null) continue
      marks.push({
        symbol,
        mark,
        fundingRate: decField(ev.r) ?? undefined,
        nextFundingAt: intField(ev.T) ?? undefined,
      })
    } else if (ev.e === 'bookTicker') {
      const bid = decField(ev.b)
      const ask = decField(ev.a)
      if (bid !== null && ask !== null) books.push({ symbol, bid, ask })
    }
  }
  return { marks, books }
}

/**
 * Aster's market stream: one connection to the combined
 * `!markPrice@arr@1s` / `!bookTicker` stream brings every symbol, so
 * watch() asks for nothing. latest() gives the venue's own fields
 * (mark `p`, funding rate `r` per the symbol's interval, next funding
 * `T`, best bid `b` / ask `a`) with `at` the arrival of the older of the
 * mark and the book; a symbol whose book has not come yet has no bid or
 * ask. It reconnects by itself (the venue ends connections after 24 h).
 * @example
 * const stream = createAsterMarketStream({ url: asterWsUrl(baseUrl) })
 * const adapter = createAsterAdapter({ baseUrl, marketStream: stream })
 */
export function createAsterMarketStream(
  options: AsterMarketStreamOptions,
): MarketStream {
  const now = options.now ?? Date.now
  const marks = new Map<string, AsterMarkUpdate & { at: number }>()
  const books = new Map<string, AsterBookUpdate & { at: number }>()
  const base = options.url.replace(/\/+$/, '')
  // `!bookTicker` sends a book only when it changes: while the stream
  // flows, an unchanged book is as current as the latest book frame
  let lastBookFrame = 0

  const socket = openReconnectingSocket({
    url: `${base}/stream?streams=${ASTER_MARKET_STREAMS.join('/')}`,
    onOpen: () => {
      // the streams are named in the URL; a book may have changed while
      // the connection was down, and an unchanged one is not sent again
      books.clear()
    },
    onMessage(text) {
      try {
        const read = readAsterStreamFrame(text)
        const at = now()
        for (const m of read.marks) marks.set(m.symbol, { ...m, at })
        for (const b of read.books) books.set(b.symbol, { ...b, at })
        if (read.books.length > 0) lastBookFrame = at
      } catch {
        // a frame the stream cannot read never stops it
      }
    },
    silentMs: options.silentMs ?? 10_000,
    minDelayMs: options.minDelayMs,
    maxDelayMs: options.maxDelayMs,
    onState: options.onState,
  })

  return {
    watch() {
      // every symbol comes on the all-market streams
    },
    latest(symbol): StreamQuote | undefined {
      const key = symbol.toUpperCase()
      const m = marks.get(key)
      if (!m) return undefined
      const b = books.get(key)
      return {
        mark: m.mark,
        fundingRate: m.fundingRate,
        nextFundingAt: m.nextFundingAt,
        bid: b?.bid,
        ask: b?.ask,
        at: b ? Math.min(m.at, Math.max(b.at, lastBookFrame)) : m.at,
      }
    },
    state: () => socket.state(),
    close: () => socket.close(),
  }
}

const WS_SCHEMES: Record<string, string> = {
  'http:': 'ws:',
  'https:': 'wss:',
  'ws:': 'ws:',
  'wss:': 'wss:',
}

/**
 * The market-stream base for a futures REST base: Aster's mainnet
 * (`https://fapi.asterdex.com`, also `fapi3`) → `wss://fstream.asterdex.com`,
 * testnet → `wss://fstream.asterdex-testnet.com` (unverified, see top);
 * any other host (a fake) → the same host over `ws:` / `wss:`.
 * @throws RangeError for a URL that is neither http(s) nor ws(s)
 */
export function asterWsUrl(httpBaseUrl: string): string {
  const u = new URL(httpBaseUrl)
  if (/^fapi\d*\.asterdex\.com$/.test(u.hostname)) {
    return 'wss://fstream.asterdex.com'
  }
  if (/^fapi\d*\.asterdex-testnet\.com$/.test(u.hostname)) {
    return 'wss://fstream.asterdex-testnet.com'
  }
  const scheme = WS_SCHEMES[u.protocol]
  if (!scheme) throw new RangeError(`not an http(s) URL: ${httpBaseUrl}`)
  return `${scheme}//${u.host}${u.pathname.replace(/\/+$/, '')}`
}
