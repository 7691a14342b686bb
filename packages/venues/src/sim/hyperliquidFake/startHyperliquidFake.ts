import {
  createServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http'
import {
  HL_LIMITS,
  hlAnswerCharges,
  hlRequestCharges,
} from '../../hyperliquid/limits/hlLimits.js'
import { hlWsUrl } from '../../hyperliquid/stream/hlWsUrl.js'
import {
  clientIp,
  type FakeLimitOptions,
  resolveFakeLimits,
} from '../fakeLimitOptions.js'
import type { FakeBucketUsage } from '../fakeRateLimits.js'
import { holdUntilSaved } from '../holdUntilSaved.js'
import { dateByVenueClock, listen, readBody } from '../loopbackHttp.js'
import type { SimExchange } from '../simExchange.js'
import { builderFeeTenths } from './hlBuilderFees.js'
import { handleExchange } from './hlExchange.js'
import {
  type HlFakeSnapshot,
  hlFakeToSnapshot,
  restoreHlFake,
} from './hlFakeSnapshot.js'
import {
  approveAgent,
  approveBuilderFee,
  createHlFakeState,
  type HlFakeAgent,
} from './hlFakeState.js'
import { attachHlFakeStreams } from './hlFakeStreams.js'
import { HlInfoError, handleInfo } from './hlInfo.js'
import { sampleHlMarks } from './hlMarkCandles.js'
import { fireHlTriggers } from './hlTriggerOrders.js'
import { sendHlRateLimited } from './sendHlRateLimited.js'

export interface HyperliquidFakeOptions {
  /**
   * saves every change made so far (`dn up`'s simulator file): an answer
   * that acknowledged a change waits for it @default answers at once
   */
  readonly durable?: (() => Promise<void>) | undefined
  /** the simulated `hl` venue traded through the fake */
  readonly exchange: SimExchange
  /** @default '127.0.0.1' */
  readonly host?: string
  /** 0 picks a free port @default 0 */
  readonly port?: number
  /** phantom-agent source `a` (mainnet) or `b`; `hyperliquidChain` @default true */
  readonly isMainnet?: boolean
  /** time for nonces, expiries and timestamps; use the exchange's clock @default Date.now */
  readonly now?: () => number
  /**
   * Hyperliquid's per-IP weight limit (`hyperliquid/limits/`): `true`
   * refuses over-budget requests with the venue's 429, `false` only
   * measures. @default FAKE_RATE_LIMITS_DEFAULT
   */
  readonly rateLimits?: boolean | FakeLimitOptions
  /**
   * WebSocket (`/ws`): a subscription's data is pushed when it changed,
   * at most this often @default 1000
   */
  readonly streamIntervalMs?: number
  /** a saved fake to go on from (`toSnapshot()`), over the saved engine */
  readonly restore?: HlFakeSnapshot | undefined
  /**
   * referral codes that exist (code → referrer address), for
   * `setReferrer`; the fake does not serve `registerReferrer` @default {}
   */
  readonly referralCodes?: Readonly<Record<string, string>> | undefined
}

export interface HyperliquidFake {
  /** base URL; POST `${url}/info` and `${url}/exchange` */
  readonly url: string
  /** the WebSocket (`ws://…/ws`): activeAssetCtx, allMids, ping */
  readonly wsUrl: string
  /** terminates every open WebSocket, as a network drop would */
  dropStreams(): void
  /** while paused, stream upgrades are refused and nothing is pushed */
  pauseStreams(paused: boolean): void
  /** open WebSockets */
  streamClients(): number
  close(): Promise<void>
  /** the API wallets `user` approved, as `extraAgents` lists them */
  agents(user: string): HlFakeAgent[]
  /**
   * Approves `agent` for `user` as a signed approveAgent would, without
   * the request: for benchmarks that need more bound accounts than the
   * venue's limits let them bind in reasonable time. With `builder`, also
   * the builder's fee cap (a percent string such as `0.1%`) as a signed
   * approveBuilderFee would: orders naming an unapproved builder are
   * refused.
   */
  seedAgent(
    user: string,
    agent: string,
    builder?: { readonly address: string; readonly maxFeeRate: string },
  ): void
  /** every rate-limit bucket: requests, weight, refusals, peak */
  rateLimitUsage(): FakeBucketUsage[]
  /** agents, fee approvals, nonces, orders and switches, as JSON */
  toSnapshot(): HlFakeSnapshot
  /** grows with every change worth saving */
  version(): number
}

const MAX_BODY = 256 * 1024

/**
 * Starts an HTTP server speaking Hyperliquid's `/info` and `/exchange`
 * protocol over a simulated `hl` exchange: real L1 and user-signed
 * signatures are recovered, agents and nonces are enforced, orders go to
 * the engine. Engine faults: `outage` → 503, `timeoutAfterAccept` → the
 * action is processed and the socket is destroyed without an answer,
 * `latencyMs` delays every answer. Every request is weighed against the
 * per-IP budget of 1200 a minute (answers of list reads add their items'
 * weight); with `rateLimits` enforced, one over it is answered 429.
 * `wsUrl` serves the market streams (`hlFakeStreams.ts`), which spend
 * no weight.
 * @example const fake = await startHyperliquidFake({ exchange })
 */
export async function startHyperliquidFake(
  options: HyperliquidFakeOptions,
): Promise<HyperliquidFake> {
  const now = options.now ?? Date.now
  const state = createHlFakeState(
    options.exchange,
    options.isMainnet ?? true,
    now,
    options.referralCodes,
  )
  if (options.restore) restoreHlFake(state, options.restore)
  const { limiter } = resolveFakeLimits(
    options.rateLimits,
    () => HL_LIMITS,
    now,
  )
  const server = createServer((req, res) => {
    dateByVenueClock(res, now)
    holdUntilSaved(
      res,
      () => options.exchange.version() + state.version,
      options.durable,
    )
    serve(req, res).catch((e: unknown) => {
      if (!res.headersSent) send(res, 500, { error: String(e) })
      else res.destroy()
    })
  })

  async function serve(req: IncomingMessage, res: ServerResponse) {
    const path = (req.url ?? '').split('?')[0]
    if (req.method !== 'POST' || (path !== '/info' && path !== '/exchange')) {
      send(res, 404, { error: 'Not Found' })
      return
    }
    let body: Record<string, unknown> | null = null
    try {
      const parsed: unknown = JSON.parse(
        await readBody(req, MAX_BODY, () => new SyntaxError('body too large')),
      )
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
        body = parsed as Record<string, unknown>
      }
    } catch {
      // an unreadable body is still a request against the budget
    }
    const ip = clientIp(req)
    if (!limiter.charge(ip, hlRequestCharges(path, body)).ok) {
      sendHlRateLimited(res)
      return
    }
    if (!body) {
      send(res, 422, 'Failed to deserialize the JSON body into the target type')
      return
    }
    const faults = options.exchange.faults()
    if (faults.latencyMs > 0) {
      await new Promise((r) => setTimeout(r, faults.latencyMs))
    }
    if (faults.outage) {
      send(res, 503, { error: 'Service Unavailable' })
      return
    }
    // what time did since the last request: marks sampled, triggers fired
    sampleHlMarks(state)
    fireHlTriggers(state)
    if (path === '/info') {
      try {
        const answer = handleInfo(state, body)
        limiter.addCharges(ip, hlAnswerCharges(path, body, answer))
        send(res, 200, answer)
      } catch (e) {
        if (e instanceof HlInfoError) send(res, 422, e.message)
        else throw e
      }
      return
    }
    state.version += 1
    const answer = await handleExchange(state, body)
    if (options.exchange.rollFault('timeoutAfterAccept')) {
      req.socket.destroy()
      return
    }
    send(res, 200, answer)
  }

  const listening = await listen(server, options.host, options.port)
  const streams = attachHlFakeStreams(
    server,
    state,
    options.streamIntervalMs ?? 1000,
  )
  return {
    url: listening.url,
    wsUrl: hlWsUrl(listening.url),
    dropStreams: streams.drop,
    pauseStreams: streams.pause,
    streamClients: streams.clients,
    close: async () => {
      await streams.close()
      await listening.close()
    },
    agents: (user) => [
      ...(state.agentsByUser.get(user.toLowerCase())?.values() ?? []),
    ],
    seedAgent: (user, agent, builder) => {
      state.version += 1
      approveAgent(state, user, agent, 'dn')
      if (builder) {
        const tenths = builderFeeTenths(builder.maxFeeRate)
        if (tenths === null) {
          throw new RangeError(`not a fee rate: ${builder.maxFeeRate}`)
        }
        approveBuilderFee(state, user, builder.address, tenths)
      }
    },
    rateLimitUsage: () => limiter.usage(),
    toSnapshot: () => hlFakeToSnapshot(state),
    version: () => state.version,
  }
}

function send(res: ServerResponse, status: number, body: unknown) {
  const text = typeof body === 'string' ? body : JSON.stringify(body)
  res.writeHead(status, {
    'content-type':
      typeof body === 'string' ? 'text/plain' : 'application/json',
  })
  res.end(text)
}
