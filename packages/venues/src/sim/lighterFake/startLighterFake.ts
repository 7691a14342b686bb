import {
  createServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http'
import { lighterClientOrderIndex } from '../../lighter/adapter/lighterClientOrderIndex.js'
import { lighterSignerChainId } from '../../lighter/binding/lighterSignerChainId.js'
import type { LighterVenue } from '../../lighter/binding/lighterVenue.js'
import {
  lighterLimits,
  lighterRequestCharges,
} from '../../lighter/limits/lighterLimits.js'
import { lighterWsUrl } from '../../lighter/stream/createLighterMarketStream.js'
import type { LighterWsLimits } from '../../lighter/stream/lighterWsLimits.js'
import {
  clientIp,
  type FakeLimitOptions,
  resolveFakeLimits,
} from '../fakeLimitOptions.js'
import type { FakeBucketUsage } from '../fakeRateLimits.js'
import { holdUntilSaved } from '../holdUntilSaved.js'
import { dateByVenueClock, listen, sendJson as send } from '../loopbackHttp.js'
import type { SimExchange } from '../simExchange.js'
import { handleSendTx } from './handleSendTx.js'
import { handleSendTxBatch } from './handleSendTxBatch.js'
import type { LighterFakeAccountAuth } from './lighterFakeAccountChannel.js'
import { createLighterFakeAttribution } from './lighterFakeAttribution.js'
import { lighterFakeAuthOf } from './lighterFakeAuthOf.js'
import { LighterFakeError } from './lighterFakeError.js'
import { readLighterForm } from './lighterFakeForm.js'
import { handleRead } from './lighterFakeReads.js'
import {
  type LighterFakeSnapshot,
  lighterFakeToSnapshot,
  restoreLighterFake,
} from './lighterFakeSnapshot.js'
import {
  createLighterFakeState,
  engineOrderId,
  keyId,
  type LighterFakeState,
} from './lighterFakeState.js'
import { createLighterFakeStreams } from './lighterFakeStreams.js'
import { fireLighterTriggers } from './lighterFakeTriggers.js'
import { sendLighterRateLimited } from './sendLighterRateLimited.js'

export interface LighterFakeOptions {
  /**
   * saves every change made so far (`dn up`'s simulator file): an answer
   * that acknowledged a change waits for it @default answers at once
   */
  readonly durable?: (() => Promise<void>) | undefined
  /** the simulated Lighter venue traded through the fake */
  readonly exchange: SimExchange
  readonly venue: LighterVenue
  /** @default '127.0.0.1' */
  readonly host?: string
  /** 0 picks a free port @default 0 */
  readonly port?: number
  /** verify signatures for the testnet chain 300 @default false */
  readonly testnet?: boolean
  /** time for expiries and auth deadlines @default Date.now */
  readonly now?: () => number
  /**
   * Lighter's limits for an account tier (`lighter/limits/`, `lighterTier`
   * @default 'standard'): `true` refuses over-budget requests with the
   * venue's 429, `false` only measures.
   * @default FAKE_RATE_LIMITS_DEFAULT
   */
  readonly rateLimits?: boolean | FakeLimitOptions
  /** ms between `market_stats` pushes on `/stream` @default 1000 */
  readonly streamIntervalMs?: number
  /** ms between `account_all` diffs on `/stream` @default 200 */
  readonly accountStreamIntervalMs?: number
  /**
   * whether `account_all` needs an auth token @default 'optional' (the
   * docs' subscription has none)
   */
  readonly accountAllAuth?: LighterFakeAccountAuth
  /** replaces some of Lighter's WebSocket limits (tests) */
  readonly wsLimits?: Partial<LighterWsLimits>
  /** a saved fake to go on from (`toSnapshot()`), over the saved engine */
  readonly restore?: LighterFakeSnapshot | undefined
}

export interface LighterFake {
  /** base URL; the API is under `${url}/api/v1/` */
  readonly url: string
  /** the signing chain id this deployment verifies */
  readonly chainId: number
  close(): Promise<void>
  /** the engine's client order id of a service order (for `stats()`) */
  engineOrderId(accountIndex: number, clientOrderId: string): string
  /** protocol state, for tests that inspect keys and nonces */
  readonly state: LighterFakeState
  /**
   * Registers an API key's public key (`0x` + 80 hex) in a slot as a
   * signed ChangePubKey would, without the tx: for benchmarks that need
   * more bound accounts than the venue's limits let them bind.
   */
  seedApiKey(accountIndex: number, apiKeyIndex: number, publicKey: string): void
  /** every rate-limit bucket: requests, weight, refusals, peak */
  rateLimitUsage(): FakeBucketUsage[]
  /** the WebSocket, `${url}/stream` as `ws://` (`lighterFakeStreams.ts`) */
  readonly wsUrl: string
  /** terminates every open WebSocket (fallback tests); how many */
  dropStreams(): number
  /** open WebSockets */
  streamClients(): number
  /** accounts subscribed to `account_all` on open WebSockets, sorted */
  streamedAccounts(): number[]
  /** API keys, nonces, orders and integrators, as JSON */
  toSnapshot(): LighterFakeSnapshot
  /** grows with every change worth saving */
  version(): number
}

/**
 * Starts an HTTP server speaking Lighter's REST protocol over a simulated
 * Lighter exchange. Every L1 signature is recovered (ChangePubKey must be
 * signed by the account's address, else 21504), every L2 Schnorr
 * signature is verified against the slot's registered key for this
 * deployment's chain id, nonces must be the key's next one, expired txs,
 * off-grid or too small orders and reused client order indexes are
 * refused with Lighter's codes, and authenticated reads need a valid auth
 * token (header `Authorization`, or query `authorization` or `auth`).
 * `sendTx` and `sendTxBatch` take `multipart/form-data` (the spec's) or
 * urlencoded forms. Accounts are the engine's (`faucet`); the fake learns an
 * account's owner from `accountsByL1Address` / `account?by=l1_address`
 * and from ChangePubKey's L1 signature, so `account?by=index` answers
 * only for accounts seen that way.
 *
 * Stop-loss / take-profit orders (types 2–5) wait outside the engine
 * until the mark crosses their trigger price, checked as each request
 * arrives and on the stream's account tick (`lighterFakeTriggers.ts`).
 *
 * Engine faults: `outage` → 503 on every path; `timeoutAfterAccept` →
 * a `sendTx` is processed and the socket destroyed without an answer;
 * `latencyMs` delays every answer.
 *
 * WebSocket: `market_stats` on `${url}/stream` (`wsUrl`), pushed every
 * `streamIntervalMs`, and `account_all/<account>`, diffed every
 * `accountStreamIntervalMs`; Lighter's WebSocket limits are enforced
 * (`lighterFakeStreams.ts`), the REST rate limits do not count frames.
 *
 * Rate limits: every `/api/v1/` request is counted per IP, or per L1
 * address when it is an authenticated read (valid auth token) or a tx
 * (the owner of its account); with `rateLimits` enforced, one over the
 * tier's budget is answered 429 `{code: 23000}`.
 *
 * @example const fake = await startLighterFake({ exchange, venue: 'lighter' })
 */
export async function startLighterFake(
  options: LighterFakeOptions,
): Promise<LighterFake> {
  const chainId = lighterSignerChainId(options.venue, options.testnet ?? false)
  const now = options.now ?? Date.now
  const state = createLighterFakeState(
    options.exchange,
    options.venue,
    chainId,
    now,
  )
  if (options.restore) restoreLighterFake(state, options.restore)
  const { limiter, lighterTier } = resolveFakeLimits(
    options.rateLimits,
    lighterLimits,
    now,
  )
  const attribution = createLighterFakeAttribution(state)
  /** Counts the request; true when it was refused (and answered). */
  const refused = (
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    l1: string | null,
  ) => {
    const charges = lighterRequestCharges(lighterTier, path, l1)
    if (limiter.charge(clientIp(req), charges).ok) return false
    sendLighterRateLimited(res)
    return true
  }
  const server = createServer((req, res) => {
    dateByVenueClock(res, now)
    holdUntilSaved(
      res,
      () => options.exchange.version() + state.version,
      options.durable,
    )
    serve(req, res).catch((e: unknown) => {
      if (!res.headersSent) send(res, 500, { code: 500, message: String(e) })
      else res.destroy()
    })
  })

  async function serve(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://fake')
    const path = url.pathname.replace(/^\/api\/v1\//, '')
    const faults = options.exchange.faults()
    if (faults.latencyMs > 0) {
      await new Promise((r) => setTimeout(r, faults.latencyMs))
    }
    if (faults.outage) {
      send(res, 503, { code: 503, message: 'Service Unavailable' })
      return
    }
    // trigger orders see the mark as of this request, before it is served
    fireLighterTriggers(state)
    try {
      if (
        req.method === 'POST' &&
        (path === 'sendTx' || path === 'sendTxBatch')
      ) {
        const form = await readLighterForm(req)
        if (refused(req, res, path, attribution.tx(form))) return
        state.version += 1
        const answer =
          path === 'sendTx'
            ? await handleSendTx(state, form)
            : await handleSendTxBatch(state, form)
        if (options.exchange.rollFault('timeoutAfterAccept')) {
          req.socket.destroy()
          return
        }
        send(res, 200, answer)
        return
      }
      if (req.method === 'GET' && url.pathname.startsWith('/api/v1/')) {
        const token = lighterFakeAuthOf(req, url.searchParams)
        if (refused(req, res, path, attribution.read(token))) return
        send(res, 200, handleRead(state, path, url.searchParams, token))
        return
      }
      if (req.method === 'GET' && url.pathname === '/') {
        send(res, 200, {
          status: 200,
          network_id: chainId,
          timestamp: Date.now(),
        })
        return
      }
      send(res, 404, { code: 404, message: 'Not Found' })
    } catch (e) {
      if (!(e instanceof LighterFakeError)) throw e
      send(res, 400, { code: e.code, message: e.message })
    }
  }

  const streams = createLighterFakeStreams(state, {
    intervalMs: options.streamIntervalMs ?? 1000,
    accountIntervalMs: options.accountStreamIntervalMs,
    accountAuth: options.accountAllAuth,
    limits: options.wsLimits,
  })
  server.on('upgrade', streams.upgrade)
  const listening = await listen(server, options.host, options.port)
  return {
    url: listening.url,
    wsUrl: lighterWsUrl(listening.url),
    dropStreams: streams.dropAll,
    streamClients: streams.clients,
    streamedAccounts: streams.accountSubscriptions,
    chainId,
    state,
    seedApiKey(accountIndex, apiKeyIndex, publicKey) {
      state.version += 1
      state.keys.set(
        keyId(accountIndex, apiKeyIndex),
        publicKey.replace(/^0x/, '').toLowerCase(),
      )
    },
    engineOrderId: (accountIndex, clientOrderId) =>
      engineOrderId(accountIndex, lighterClientOrderIndex(clientOrderId)),
    close: async () => {
      await streams.close()
      await listening.close()
    },
    rateLimitUsage: () => limiter.usage(),
    toSnapshot: () => lighterFakeToSnapshot(state),
    version: () => state.version,
  }
}
