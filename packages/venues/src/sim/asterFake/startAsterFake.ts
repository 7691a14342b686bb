import {
  createServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http'
import type { FakeLimitOptions } from '../fakeLimitOptions.js'
import type { FakeBucketUsage } from '../fakeRateLimits.js'
import { holdUntilSaved } from '../holdUntilSaved.js'
import {
  dateByVenueClock,
  listen,
  readBody,
  sendJson as send,
} from '../loopbackHttp.js'
import type { SimExchange } from '../simExchange.js'
import { authenticate, authenticateMain } from './asterFakeAuth.js'
import { recordBuilder } from './asterFakeBuilders.js'
import { AsterFakeError } from './asterFakeError.js'
import { createAsterFakeGate } from './asterFakeGate.js'
import { createAsterFakeListenKeys } from './asterFakeListenKeys.js'
import { handleMarket } from './asterFakeMarket.js'
import { MAIN_ROUTES, SIGNED_ROUTES } from './asterFakeRoutes.js'
import {
  type AsterFakeSnapshot,
  asterFakeToSnapshot,
  restoreAsterFake,
} from './asterFakeSnapshot.js'
import { type AsterFakeAgent, createAsterFakeState } from './asterFakeState.js'
import {
  type AsterFakeStreamClient,
  createAsterFakeStreams,
} from './asterFakeStreams.js'
import { observeMarks } from './asterFakeTape.js'
import { sweepTriggers } from './asterFakeTriggers.js'
import { createAsterFakeUserStreams } from './asterFakeUserStreams.js'
import { watchAsterFake } from './asterFakeWatch.js'

export interface AsterFakeOptions {
  /**
   * saves every change made so far (`dn up`'s simulator file): an answer
   * that acknowledged a change waits for it @default answers at once
   */
  readonly durable?: (() => Promise<void>) | undefined
  /** the simulated `aster` venue traded through the fake */
  readonly exchange: SimExchange
  /** @default '127.0.0.1' */
  readonly host?: string | undefined
  /** 0 picks a free port @default 0 */
  readonly port?: number | undefined
  /** chain 714 and `AsterChain` 'Testnet' @default false */
  readonly testnet?: boolean | undefined
  /** ms, for nonces and expiries; use the exchange's clock @default Date.now */
  readonly now?: (() => number) | undefined
  /**
   * Aster's REQUEST_WEIGHT (per IP) and ORDERS (per `user`) limits
   * (`aster/limits/`): `true` refuses over-budget requests with 429, then
   * bans an IP that keeps sending with 418; `false` only measures (the
   * used-weight headers are sent either way).
   * @default FAKE_RATE_LIMITS_DEFAULT
   */
  readonly rateLimits?: boolean | FakeLimitOptions | undefined
  /** ms between WebSocket market-stream pushes @default 1000 */
  readonly streamIntervalMs?: number | undefined
  /** ms between the streams' server pings @default 300_000 */
  readonly streamPingIntervalMs?: number | undefined
  /** ms a stream connection lives @default 86_400_000 */
  readonly streamLifetimeMs?: number | undefined
  /**
   * ms between comparisons of the streamed accounts' engine state, each
   * change pushed as an ACCOUNT_UPDATE on their user streams @default 200
   */
  readonly userStreamIntervalMs?: number | undefined
  /**
   * ms between looks at the engine without a request: marks recorded,
   * conditional orders whose stop price was reached placed; 0 only at
   * requests @default 1000
   */
  readonly watchIntervalMs?: number | undefined
  /** a saved fake to go on from (`toSnapshot()`), over the saved engine */
  readonly restore?: AsterFakeSnapshot | undefined
}

export interface AsterFake {
  /** base URL; requests go to `${url}/fapi/v3/…` */
  readonly url: string
  /** WebSocket base: `${wsUrl}/stream?streams=…` and `${wsUrl}/ws/<stream>` */
  readonly wsUrl: string
  /** Terminates every open stream connection, user streams too (a network drop). */
  dropStreams(): void
  /** the open stream connections */
  streamClients(): AsterFakeStreamClient[]
  /** the open user-stream (`/ws/<listenKey>`) connections */
  userStreamClients(): { readonly user: string; readonly listenKey: string }[]
  close(): Promise<void>
  /** the API wallets `user` approved, as `GET /fapi/v3/agent` lists them */
  agents(user: string): AsterFakeAgent[]
  /**
   * Approves `agent` (perpetuals only, no withdrawals) for `user`, and a
   * builder's fee cap when given, as a signed approveAgent would, without
   * the request: for benchmarks that need more bound accounts than the
   * venue's limits let them bind.
   */
  seedAgent(
    user: string,
    agent: string,
    builder?: { readonly address: string; readonly maxFeeRate: string },
  ): void
  /** the builder fee cap `user` approved for `builder`, if any */
  builderCap(user: string, builder: string): string | undefined
  /** the builder fields an order was placed with */
  orderBuilder(
    user: string,
    clientOrderId: string,
  ): { builder: string | null; feeRate: string | null } | undefined
  /** every rate-limit bucket: requests, weight, refusals, peak */
  rateLimitUsage(): FakeBucketUsage[]
  /** agents, fee approvals, nonces, modes and orders, as JSON */
  toSnapshot(): AsterFakeSnapshot
  /** grows with every change worth saving */
  version(): number
}

const MAX_BODY = 64 * 1024
const UNKNOWN_STATUS = {
  code: -1007,
  msg: 'Timeout waiting for response from backend server. Send status unknown; execution status unknown.',
}

/**
 * Starts an HTTP server speaking Aster's Futures V3 protocol (`/fapi/v3`)
 * over a simulated `aster` exchange. Agent-signed requests are verified
 * from the exact received query or body (minus `&signature=…`) with the
 * `Message` EIP-712 scheme; the signer must be an agent the user approved
 * through `POST /fapi/v3/approveAgent`, whose main-wallet signature is
 * verified over the dynamic struct rebuilt from the posted parameters in
 * the struct's fixed field order (`asterFakeStructs.ts`). Routes:
 * `asterFakeRoutes.ts` (signed) and `asterFakeMarket.ts` (public).
 * Nonces: 10 s window, no reuse, last 100 per user (-4225). Symbol filters
 * and engine rejects answer with Aster's codes; one-way mode only.
 * Conditional orders wait in the fake until the mark reaches their stop
 * price (`asterFakeTriggers.ts`); every request first records the marks
 * (`asterFakeTape.ts`, for klines, tickers and funding history).
 * Modify Order (`PUT /fapi/v3/order`) puts a resting LIMIT order at a new
 * price and quantity under the same orderId (`asterFakeModify.ts`); the
 * doc has no Modify Multiple Orders (`PUT /fapi/v3/batchOrders`): 404.
 * Engine faults: `outage` → 503 before anything; `timeoutAfterAccept` →
 * an order is placed, then the answer is HTTP 503 (status unknown);
 * `latencyMs` delays every answer. Rate limits: `asterFakeGate.ts`.
 * WebSocket market streams on the same port: `asterFakeStreams.ts`;
 * listenKeys (`POST|PUT|DELETE /fapi/v3/listenKey`, signed, weight 1)
 * and user data streams (`/ws/<listenKey>`): `asterFakeListenKeys.ts`,
 * `asterFakeUserStreams.ts`.
 * @example const fake = await startAsterFake({ exchange, port: 0 })
 */
export async function startAsterFake(
  options: AsterFakeOptions,
): Promise<AsterFake> {
  if (options.exchange.venue !== 'aster') {
    throw new RangeError(`an aster fake needs the aster exchange`)
  }
  const now = options.now ?? Date.now
  const state = createAsterFakeState(
    options.exchange,
    options.testnet ?? false,
    now,
  )
  if (options.restore) restoreAsterFake(state, options.restore)
  const gate = createAsterFakeGate(options.rateLimits, now)
  const listenKeys = createAsterFakeListenKeys(now)
  /** USER_STREAM routes: signed like USER_DATA, one key per user */
  const userStream: Record<string, (user: string) => unknown> = {
    'POST /fapi/v3/listenKey': (user) => listenKeys.open(user),
    'PUT /fapi/v3/listenKey': (user) => listenKeys.keepAlive(user),
    'DELETE /fapi/v3/listenKey': (user) => listenKeys.close(user),
  }

  const server = createServer((req, res) => {
    dateByVenueClock(res, now)
    holdUntilSaved(
      res,
      () => options.exchange.version() + state.version,
      options.durable,
    )
    serve(req, res).catch((e: unknown) => {
      if (res.headersSent) res.destroy()
      else if (e instanceof AsterFakeError) {
        send(res, e.status, { code: e.code, msg: e.message })
      } else send(res, 500, { code: -1000, msg: String(e) })
    })
  })

  async function serve(req: IncomingMessage, res: ServerResponse) {
    const [path = '', query = ''] = (req.url ?? '').split('?', 2)
    const method = req.method ?? 'GET'
    const route = `${method} ${path}`
    gate.stamp(req, res)
    const body =
      method === 'GET'
        ? ''
        : await readBody(
            req,
            MAX_BODY,
            () =>
              new AsterFakeError(
                -1101,
                'Too many parameters sent for this endpoint.',
                413,
              ),
          )
    // POST / DELETE: the form body, or the whole string in the query
    const raw = method === 'GET' || body.length === 0 ? query : body
    if (!gate.admit(req, res, asMethod(method), path, raw)) return
    const faults = options.exchange.faults()
    if (faults.latencyMs > 0) {
      await new Promise((r) => setTimeout(r, faults.latencyMs))
    }
    if (faults.outage) {
      send(res, 503, { code: -1001, msg: 'Service Unavailable' })
      return
    }
    // what the engine did since the last request: marks to the tape,
    // conditional orders whose stop price the mark reached to the engine
    observeMarks(state)
    sweepTriggers(state)
    if (method === 'GET') {
      const q = new URLSearchParams(query)
      const answer = handleMarket(state, path, q, gate.rateLimits)
      if (answer !== undefined) {
        send(res, 200, answer)
        return
      }
    }
    // past the public reads, every request may change what is saved
    state.version += 1
    const main = MAIN_ROUTES[route]
    if (main) {
      const { user, pairs } = await authenticateMain(state, raw, main[0])
      send(res, 200, main[1](state, user, pairs))
      return
    }
    const keyHandler = userStream[route]
    if (keyHandler) {
      const { user } = await authenticate(state, raw)
      send(res, 200, keyHandler(user))
      return
    }
    const handler = SIGNED_ROUTES[route]
    if (!handler) {
      send(res, 404, { code: -1000, msg: `unknown route ${route}` })
      return
    }
    const { user, pairs } = await authenticate(state, raw)
    if (!gate.admitOrders(req, res, asMethod(method), path, raw, user)) return
    const answer = handler(state, user, pairs, method)
    if (
      route === 'POST /fapi/v3/order' &&
      options.exchange.rollFault('timeoutAfterAccept')
    ) {
      send(res, 503, UNKNOWN_STATUS)
      return
    }
    send(res, 200, answer)
  }

  const listening = await listen(server, options.host, options.port)
  const streams = createAsterFakeStreams(state, {
    intervalMs: options.streamIntervalMs,
    pingIntervalMs: options.streamPingIntervalMs,
    lifetimeMs: options.streamLifetimeMs,
  })
  const userStreams = createAsterFakeUserStreams(state, listenKeys, {
    intervalMs: options.userStreamIntervalMs,
    pingIntervalMs: options.streamPingIntervalMs,
  })
  const stopWatch = watchAsterFake(state, options.watchIntervalMs ?? 1000)
  server.on('upgrade', (req, socket, head) => {
    if (userStreams.claims(req.url ?? '/')) {
      userStreams.upgrade(req, socket, head)
    } else streams.upgrade(req, socket, head)
  })
  return {
    url: listening.url,
    wsUrl: listening.url.replace(/^http/, 'ws'),
    dropStreams: () => {
      streams.drop()
      userStreams.drop()
    },
    streamClients: () => streams.clients(),
    userStreamClients: () => userStreams.clients(),
    close: () => {
      stopWatch()
      streams.close()
      userStreams.close()
      return listening.close()
    },
    agents: (user) => [
      ...(state.agents.get(user.toLowerCase())?.values() ?? []),
    ],
    seedAgent(user, agent, builder) {
      state.version += 1
      const u = user.toLowerCase()
      if (builder) {
        recordBuilder(state, u, builder.address, builder.maxFeeRate, 'dn')
      }
      const list = state.agents.get(u) ?? new Map<string, AsterFakeAgent>()
      list.set(agent.toLowerCase(), {
        agentAddress: agent,
        agentName: 'dn',
        ipWhitelist: '',
        expired: Number.MAX_SAFE_INTEGER,
        canSpotTrade: false,
        canPerpTrade: true,
        canWithdraw: false,
      })
      state.agents.set(u, list)
    },
    builderCap: (user, builder) =>
      state.builders.get(`${user.toLowerCase()}|${builder.toLowerCase()}`),
    orderBuilder: (user, clientOrderId) => {
      const o = state.orders.get(`${user.toLowerCase()}|${clientOrderId}`)
      return o && { builder: o.builder, feeRate: o.feeRate }
    },
    rateLimitUsage: () => gate.usage(),
    toSnapshot: () => asterFakeToSnapshot(state),
    version: () => state.version,
  }
}

const METHODS = new Set(['GET', 'POST', 'PUT', 'DELETE'] as const)

/** Other verbs weigh as a GET (they are then answered 404). */
function asMethod(m: string): 'GET' | 'POST' | 'PUT' | 'DELETE' {
  return METHODS.has(m as 'GET') ? (m as 'GET') : 'GET'
}
