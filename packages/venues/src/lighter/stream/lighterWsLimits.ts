/**
 * Lighter's WebSocket limits, per IP (the client keeps inside them, the
 * protocol fake enforces them).
 *
 * Sources ([source], read, not measured against the venue):
 * - apidocs `rate-limits` as transcribed by api-evangelist/lighter
 *   `rate-limits/lighter-rate-limits.yml` (`websocket_limits`, generated
 *   2026-07-19): 255 connections, 500 subscriptions per connection, 500
 *   unique accounts per connection, 255 new connections a minute, 200
 *   client messages a minute, 50 inflight messages; `sendTx` frames are
 *   not counted. Refusal codes: 23001 `Too Many Subscriptions!`, 23002
 *   `Too Many Different Accounts!`, 23003 `Too Many Connections!`, 30009
 *   `Too Many Websocket Messages!`, 30010 `Too Many Inflight Messages!`.
 * - docs.rs `df-lighter-core` `src/live/session/limits.rs`: the same
 *   numbers, plus 5 000 subscriptions and 5 000 accounts per IP across
 *   connections (**[unverified]**: in no Lighter page read here).
 * - NautilusTrader `nautilus_lighter::common::rate_limit`: 200 messages a
 *   minute and 50 inflight per IP, and that the venue answers 30009 /
 *   30010 past them.
 *
 * @module
 */

export interface LighterWsLimits {
  /** open WebSockets per IP */
  readonly connections: number
  /** subscriptions one connection may hold */
  readonly subscriptionsPerConnection: number
  /** distinct accounts one connection's account channels may name */
  readonly accountsPerConnection: number
  /** frames a client may send a rolling minute (pings included) */
  readonly messagesPerMinute: number
  /** subscribes sent and not yet answered */
  readonly inflight: number
}

export const LIGHTER_WS_LIMITS: LighterWsLimits = Object.freeze({
  connections: 255,
  subscriptionsPerConnection: 500,
  accountsPerConnection: 500,
  messagesPerMinute: 200,
  inflight: 50,
})

/** The venue's refusal codes for its WebSocket limits (see module doc). */
export const LIGHTER_WS_CODES = Object.freeze({
  tooManySubscriptions: 23001,
  tooManyAccounts: 23002,
  tooManyConnections: 23003,
  tooManyMessages: 30009,
  tooManyInflight: 30010,
  /** NautilusTrader's fixture `ws_order_book_subscribe_failed.json` */
  subscribeFailed: 30012,
})

/**
 * Accounts one deployment streams: one connection's account limit, so
 * every streamed account fits on a single connection (the market stream
 * has its own). Past it the busiest accounts are streamed and the rest
 * read by REST.
 */
export const LIGHTER_STREAMED_ACCOUNTS_MAX =
  LIGHTER_WS_LIMITS.accountsPerConnection
