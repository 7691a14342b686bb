/**
 * Aster user data streams of the accounts a process names (the busiest
 * first): one listenKey and one WebSocket each, so their positions come
 * without a REST request.
 *
 * Verified (asterdex/api-docs @ 265e024, `V3(Recommended)/EN/
 * aster-finance-futures-api-v3.md`, "User Data Streams", "Error Codes"):
 * - `POST /fapi/v3/listenKey` starts a stream and answers `{listenKey}`;
 *   on an account with an active key it returns that key, extended by
 *   60 min. `PUT` extends the key by 60 min, `DELETE` closes it. All three
 *   are USER_STREAM: "a valid signer and signature are required" (the
 *   same `user`/`signer`/`nonce`/`signature` scheme as USER_DATA), weight
 *   1, and no parameters of their own (PUT and DELETE name no key).
 * - A key is valid 60 min after creation; connect to
 *   `wss://fstream.asterdex.com/ws/<listenKey>`; a connection lives 24 h.
 * - Events: `ACCOUNT_UPDATE` (see asterUserEvents.ts; no liquidation
 *   price), `ORDER_TRADE_UPDATE`, `MARGIN_CALL`, `listenKeyExpired` ("no
 *   more user data event … until a new valid listenKey used"; not tied to
 *   the connection closing). Payloads may come out of order: order by `E`.
 * - Market-stream rules on the same host: the server pings every 5 min
 *   and drops a connection with no pong for 15 min; 10 incoming messages
 *   a second; 200 streams a connection. `-1125 INVALID_LISTEN_KEY` "This
 *   listenKey does not exist."
 * - Aster's demo (asterdex/API-demo-node `futures-v3-ws/15_userData.js`)
 *   connects `wss://fstream.asterdex.com/ws/<listenKey>` and keeps the key
 *   alive every 30 min.
 *
 * [unverified]:
 * - whether a listenKey may join a combined `/stream?streams=`
 *   connection (the doc only names `/ws/<listenKey>`): one connection per
 *   account, and the cap (asterStreamLimits.ts) is ours;
 * - how the venue answers a connect with an unknown or expired key: each
 *   connect is preceded by a POST, so the key dialled is live;
 * - whether the venue answers our own ping frames (RFC 6455 says it must);
 * - what a connection on a key another process DELETEs receives: the key
 *   is the account's, shared by every process that POSTs for it, so we
 *   never DELETE one (it lapses 60 min after its last keep-alive).
 *
 * @module
 */
import type { StreamedAccount } from '@dn/core'
import {
  ASTER_LISTEN_KEY_KEEPALIVE_MS,
  ASTER_USER_STREAMS_PER_IP,
} from '../limits/asterStreamLimits.js'
import type { AsterUserEvent } from './asterUserEvents.js'
import {
  type AsterListenKeys,
  type AsterUserStream,
  startAsterUserStream,
} from './asterUserStream.js'

export interface AsterUserStreamsOptions {
  /** the WebSocket base, see asterWsUrl */
  readonly url: string
  readonly listenKeys: AsterListenKeys
  /** @default ASTER_USER_STREAMS_PER_IP */
  readonly maxAccounts?: number | undefined
  /** ms between keep-alives @default 30 min */
  readonly keepAliveMs?: number | undefined
  /** ms between our WebSocket pings @default 10_000 */
  readonly pingMs?: number | undefined
  /**
   * ms without any frame (event, pong, the venue's ping) after which the
   * connection counts as dead @default 25_000: two pings may be lost, and
   * a stream that died silently is noticed (and its account read by REST
   * again) within the 30 s its positions must stay fresh
   */
  readonly silentMs?: number | undefined
  /** first reconnect delay, doubling per failure @default 500 */
  readonly minDelayMs?: number | undefined
  /** @default 30_000 */
  readonly maxDelayMs?: number | undefined
  /** `owner` (lowercase) is now followed */
  onFollow?(owner: string): void
  /** `owner` is no longer followed */
  onDrop?(owner: string): void
  /** a connection of `owner` opened: events may have been missed */
  onConnected?(owner: string): void
  onEvent?(owner: string, event: AsterUserEvent): void
}

export interface AsterUserStreams {
  /**
   * Streams the first `maxAccounts` of `accounts` (busiest first) and
   * ends the streams of every other account (socket closed; its key
   * lapses unless another process keeps it alive).
   */
  follow(accounts: readonly StreamedAccount[]): void
  /** the followed owners, lowercase */
  followed(): string[]
  /** true while `owner`'s stream is open, its key live and it is heard */
  live(owner: string): boolean
  /** the listenKey `owner`'s stream uses, while live */
  listenKey(owner: string): string | undefined
  /** Ends every stream. */
  close(): void
}

export function createAsterUserStreams(
  options: AsterUserStreamsOptions,
): AsterUserStreams {
  const max = options.maxAccounts ?? ASTER_USER_STREAMS_PER_IP
  const streams = new Map<string, AsterUserStream>()
  let closed = false

  function start(owner: string, account: StreamedAccount): AsterUserStream {
    return startAsterUserStream({
      account,
      url: options.url,
      listenKeys: options.listenKeys,
      keepAliveMs: options.keepAliveMs ?? ASTER_LISTEN_KEY_KEEPALIVE_MS,
      pingMs: options.pingMs ?? 10_000,
      silentMs: options.silentMs ?? 25_000,
      minDelayMs: options.minDelayMs ?? 500,
      maxDelayMs: options.maxDelayMs ?? 30_000,
      onConnected: () => options.onConnected?.(owner),
      onEvent: (ev) => options.onEvent?.(owner, ev),
    })
  }

  return {
    follow(accounts) {
      if (closed) return
      const wanted = new Map<string, StreamedAccount>()
      for (const a of accounts) {
        if (wanted.size >= max) break
        const owner = a.owner.toLowerCase()
        if (!wanted.has(owner)) wanted.set(owner, a)
      }
      for (const [owner, s] of streams) {
        if (wanted.has(owner)) continue
        streams.delete(owner)
        options.onDrop?.(owner)
        s.stop()
      }
      for (const [owner, a] of wanted) {
        const s = streams.get(owner)
        if (s) {
          s.setAccount(a)
          continue
        }
        options.onFollow?.(owner)
        streams.set(owner, start(owner, a))
      }
    },
    followed: () => [...streams.keys()],
    live: (owner) => streams.get(owner.toLowerCase())?.live() ?? false,
    listenKey: (owner) => streams.get(owner.toLowerCase())?.listenKey(),
    close() {
      closed = true
      for (const s of streams.values()) s.stop()
      streams.clear()
    },
  }
}
