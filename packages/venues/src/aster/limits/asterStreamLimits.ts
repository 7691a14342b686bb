/**
 * How many accounts one process streams from Aster (one listenKey and one
 * connection each).
 *
 * Source: asterdex/api-docs @ 265e024
 * `V3(Recommended)/EN/aster-finance-futures-api-v3.md`, "Websocket Market
 * Streams" and "User Data Streams": a connection may listen to at most
 * 200 streams, receive 10 messages a second and lives 24 h; user data
 * streams are at `/ws/<listenKey>`. The doc publishes no limit on
 * connections or listenKeys per IP, and does not say that a listenKey may
 * join a combined `/stream?streams=` connection, so each account gets a
 * connection of its own.
 *
 * [unverified] the cap: 200, the only stream count the doc publishes,
 * taken as a bound per IP as well; it covers the 100 accounts a worker
 * streams with room to spare. The keep-alives cost 200 PUTs of weight 1
 * per 30 min, under 7 of the 2,400 weight a minute.
 */
export const ASTER_USER_STREAMS_PER_IP = 200

/**
 * ms between keep-alives (PUT). A key lives 60 min; the doc's "send a
 * ping about every 60 minutes" would race that expiry, and Aster's own
 * demo (asterdex/API-demo-node `futures-v3-ws/15_userData.js`) sends one
 * every 30 min, as here.
 */
export const ASTER_LISTEN_KEY_KEEPALIVE_MS = 30 * 60_000
