import type { MarketQuote, VenueId } from '@dn/core'
import type { SocketState } from './reconnectingSocket.js'

/**
 * The latest market values a venue's WebSocket delivered for one symbol,
 * in the venue's own units (as its REST read gives them): the adapter
 * turns them into a quote exactly as it turns a REST answer into one.
 */
export interface StreamQuote {
  readonly mark: string
  /** the venue's funding rate field (Aster: per its interval) */
  readonly fundingRate?: string | undefined
  readonly bid?: string | undefined
  readonly ask?: string | undefined
  /** Unix ms of the next funding settlement, where the stream says */
  readonly nextFundingAt?: number | undefined
  /** Unix ms this symbol's values last arrived */
  readonly at: number
}

/** How a market stream connects, stamps what arrives and reconnects. */
export interface MarketStreamOptions {
  /** the venue's WebSocket URL */
  readonly url: string
  /** time stamped on arriving values @default Date.now */
  readonly now?: (() => number) | undefined
  /** reconnect when nothing arrived for this long (venue's keep-alive) */
  readonly silentMs?: number | undefined
  /** first reconnect delay, doubling per failure @default 500 */
  readonly minDelayMs?: number | undefined
  /** @default 30_000 */
  readonly maxDelayMs?: number | undefined
  onState?(state: SocketState): void
}

/**
 * A venue's market stream: marks, funding and top of book of every
 * symbol it carries, kept up to date in memory. It reconnects by itself;
 * a reader that finds a symbol's values too old reads REST instead.
 */
export interface MarketStream {
  /** Asks for `symbol` where the venue subscribes per market; idempotent. */
  watch(symbol: string): void
  latest(symbol: string): StreamQuote | undefined
  state(): SocketState
  close(): void
}

/**
 * The stream's values of `symbol` when they are at most `maxAgeMs` old;
 * undefined (read REST instead) when there is no stream, the symbol has
 * not come yet, or the stream went quiet. Asks the stream for the symbol.
 */
export function freshFromStream(
  stream: MarketStream | undefined,
  symbol: string,
  now: number,
  maxAgeMs: number,
): StreamQuote | undefined {
  if (!stream) return undefined
  stream.watch(symbol)
  const q = stream.latest(symbol)
  return q && now - q.at <= maxAgeMs ? q : undefined
}

/**
 * A quote from streamed values: a missing or zero side of the book is
 * the mark; `fundingRateHourly` is the venue's rate turned hourly by the
 * adapter; the next settlement is the stream's, else `nextFundingAt`.
 */
export function quoteFromStream(
  venue: VenueId,
  symbol: string,
  s: StreamQuote,
  fundingRateHourly: string,
  nextFundingAt: number,
): MarketQuote {
  const side = (v: string | undefined) =>
    v === undefined || v === '0' ? s.mark : v
  return {
    venue,
    symbol,
    mark: s.mark,
    bid: side(s.bid),
    ask: side(s.ask),
    fundingRateHourly,
    at: s.at,
    nextFundingAt: s.nextFundingAt ?? nextFundingAt,
  }
}
