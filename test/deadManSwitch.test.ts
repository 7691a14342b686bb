import { type ChildProcess, spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { rmSync } from 'node:fs'
import { dirname } from 'node:path'
import { type ComposedVenues, composeVenues } from '@dn/cli'
import { roundPrice, VENUES, type VenueId } from '@dn/core'
import { lighterClientOrderIndex } from '@dn/venues'
import {
  createSimVenues,
  type FaucetServer,
  type SimVenues,
  startFaucetServer,
} from '@dn/venues/sim'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { bindAtVenue } from './support/bindAtVenue.js'
import { FEE_CONFIG } from './support/bindingFixtures.js'
import { bundleCli } from './support/bundleCli.js'
import {
  call,
  createOwnerWithKey,
  dialects,
  startTestService,
  type TestOwner,
  type TestService,
} from './support/testService.js'
import { newWallet } from './support/wallet.js'

const MASTER_HEX = '07'.repeat(32)
const NO_FEES = { ...FEE_CONFIG, feeApproval: false }
/** past every venue's switch: Lighter's is 5 min ahead plus the window */
const JUMP_MS = 10 * 60_000

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

const MARKETS: readonly (readonly [VenueId, string])[] = [
  ['hl', 'ETH'],
  ['aster', 'ETHUSDT'],
  ['lighter', 'SOL'],
  ['lighter-mainnet', 'ETH'],
]

/**
 * A `dn worker` with a resting limit order on every venue is SIGKILLed:
 * no worker is left to cancel anything. The dead-man switch it kept
 * armed at each venue (Hyperliquid scheduleCancel, Aster
 * countdownCancelAll, Lighter's scheduled CancelAllOrders) fires by the
 * fakes' clock and cancels each order there; a new worker reconciles
 * each to `cancelled`.
 */
describe.each(dialects())('venue dead-man switches (%s)', (dialect) => {
  // the fakes' clock: moved forward to when the switches fire
  let offset = 0
  const clock = { now: () => Date.now() + offset }
  let cli: string
  let venues: SimVenues
  let sim: FaucetServer
  let composed: ComposedVenues
  let svc: TestService
  let owner: TestOwner
  const children = new Set<ChildProcess>()
  const logs = new Map<ChildProcess, string>()

  function spawnWorker(): ChildProcess {
    const child = spawn(
      process.execPath,
      [
        cli,
        'worker',
        '--db',
        dialect === 'postgres'
          ? (process.env.DN_TEST_PG_URL as string)
          : `sqlite:${svc.dbFile}`,
        '--sim-url',
        sim.url,
      ],
      {
        env: {
          ...process.env,
          DN_MASTER_KEY: MASTER_HEX,
          DN_LIGHTER_TIER: 'builder',
          DN_WORKER_ID: `dms-${randomUUID().slice(0, 8)}`,
          ...(svc.pgSchema ? { DN_DB_SCHEMA: svc.pgSchema } : {}),
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    )
    logs.set(child, '')
    child.stderr?.on('data', (d: Buffer) => {
      logs.set(child, (logs.get(child) ?? '') + d.toString())
    })
    children.add(child)
    child.once('exit', () => children.delete(child))
    return child
  }

  beforeAll(async () => {
    cli = await bundleCli()
    venues = createSimVenues({ seed: 23, clock })
    svc = await startTestService({
      dialect,
      markets: venues.marketData,
      rateLimit: 100_000,
    })
    composed = await composeVenues(
      venues,
      {},
      {
        hlMainnet: true,
        asterTestnet: false,
        config: NO_FEES,
        lighterTier: 'builder',
        store: svc.store,
      },
    )
    sim = await startFaucetServer({
      venues,
      port: 0,
      protocolUrls: composed.protocolUrls,
    })
    const wallet = newWallet()
    for (const v of VENUES) {
      const index = venues.faucet(v, wallet.address.toLowerCase(), 1_000_000)
      await bindAtVenue({
        store: svc.store,
        masterKey: Buffer.from(MASTER_HEX, 'hex'),
        binder: composed.binders[v],
        wallet,
        target: v.startsWith('lighter')
          ? { venue: v, accountIndex: index.accountIndex }
          : { venue: v },
        config: NO_FEES,
      })
    }
    owner = await createOwnerWithKey(svc, {
      wallet,
      bound: [],
      maxSizeUsd: 1_000_000,
    })
  }, 120_000)

  afterAll(async () => {
    for (const c of children) c.kill('SIGKILL')
    await sim?.close()
    await composed?.close()
    await svc?.close()
    if (cli) rmSync(dirname(cli), { recursive: true, force: true })
  })

  async function orderOf(id: string) {
    const res = await call(svc, 'GET', `/v1/perp/orders/${id}`, {
      key: owner.apiKey,
    })
    expect(res.status).toBe(200)
    return res.body.order
  }

  async function until<T>(
    what: string,
    read: () => Promise<T>,
    ok: (v: T) => boolean,
    worker?: ChildProcess,
  ): Promise<T> {
    const deadline = Date.now() + 60_000
    for (;;) {
      const v = await read()
      if (ok(v)) return v
      if (Date.now() > deadline) {
        throw new Error(
          `${what}: ${JSON.stringify(v)}\n${worker ? logs.get(worker) : ''}`,
        )
      }
      await sleep(200)
    }
  }

  /** the engine's own view of our order (Lighter keys it by index) */
  function engineView(venue: VenueId, market: string, clientOrderId: string) {
    const ex = venues.exchanges[venue]
    const id = venue.startsWith('lighter')
      ? `lighter:${ex.accountIndex(owner.owner)}:${lighterClientOrderIndex(clientOrderId)}`
      : clientOrderId
    return ex.order(owner.owner, id, market)
  }

  test('a SIGKILLed worker’s resting orders are cancelled by the venues, then reconciled', async () => {
    const first = spawnWorker()
    const ids = new Map<VenueId, string>()
    for (const [venue, market] of MARKETS) {
      const quote = await venues.marketData.quote(venue, market)
      const rules = await venues.marketData.rules(venue, market)
      if (!rules) throw new Error(`${venue} ${market} not listed`)
      // far under the mark (within Aster's PERCENT_PRICE floor): it rests
      const price = roundPrice(rules, Number(quote.mark) * 0.9, 'down')
      const min = Math.max(Number(rules.minBase), 20 / Number(price))
      const step = Number(rules.sizeStep)
      const res = await call(svc, 'POST', '/v1/perp/orders', {
        key: owner.apiKey,
        body: {
          venue,
          market,
          side: 'long',
          orderType: 'limit',
          sizeBase: Number((Math.ceil(min / step) * step).toFixed(8)),
          limitPrice: Number(price.toFixed()),
        },
      })
      expect(res.status, res.text).toBe(202)
      ids.set(venue, res.body.orderId)
    }
    const placed = new Map<VenueId, string>()
    for (const [venue] of MARKETS) {
      const o = await until(
        `${venue} order open`,
        () => orderOf(ids.get(venue) as string),
        (o) => o.status === 'open',
        first,
      )
      placed.set(venue, o.clientOrderId)
    }
    // the worker's heartbeat arms each venue's switch
    for (const [venue, market] of MARKETS) {
      const armed = await until(
        `${venue} switch armed`,
        async () => venues.exchanges[venue].scheduledCancels(owner.owner),
        (s) => s.length > 0,
        first,
      )
      expect(armed[0]?.market).toBe(venue === 'aster' ? market : null)
      expect(armed[0]?.at).toBeGreaterThan(clock.now())
    }

    first.kill('SIGKILL')
    await new Promise((r) => first.once('exit', r))
    for (const [venue, market] of MARKETS) {
      const cloid = placed.get(venue) as string
      expect(engineView(venue, market, cloid)?.state).toBe('open')
    }
    // time passes at the venues: every switch comes due and fires
    offset = JUMP_MS
    for (const [venue, market] of MARKETS) {
      const cloid = placed.get(venue) as string
      expect(engineView(venue, market, cloid)?.state, venue).toBe('cancelled')
      expect(venues.exchanges[venue].scheduledCancels(owner.owner)).toEqual([])
    }
    // back to the wall clock (Aster's nonce window is 10 s); the engines
    // simply wait for it to catch up
    offset = 0

    const second = spawnWorker()
    const words: Record<VenueId, string> = {
      hl: 'scheduledCancel',
      aster: 'CANCELED',
      lighter: 'canceled',
      'lighter-mainnet': 'canceled',
    }
    for (const [venue] of MARKETS) {
      const o = await until(
        `${venue} order reconciled`,
        () => orderOf(ids.get(venue) as string),
        (o) => o.status !== 'open',
        second,
      )
      expect(o, venue).toMatchObject({
        status: 'cancelled',
        venueStatus: words[venue],
        cancelRequestedAt: null,
      })
    }
    second.kill('SIGTERM')
  }, 180_000)
})
