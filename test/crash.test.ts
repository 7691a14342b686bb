import { type ChildProcess, spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { rmSync } from 'node:fs'
import { dirname } from 'node:path'
import { type ComposedVenues, composeVenues } from '@dn/cli'
import {
  type PerpOrderRecord,
  roundPrice,
  TERMINAL_ORDER_STATUSES,
  VENUES,
  type VenueId,
} from '@dn/core'
import { lighterClientOrderIndex } from '@dn/venues'
import {
  createSimVenues,
  type FaucetServer,
  type SimVenues,
  startFaucetServer,
} from '@dn/venues/sim'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { seededRandom } from '../packages/venues/src/sim/seededRandom.js'
import { bindAtVenue } from './support/bindAtVenue.js'
import { FEE_CONFIG } from './support/bindingFixtures.js'
import { bundleCli } from './support/bundleCli.js'
import {
  bindVenues,
  call,
  createOwnerWithKey,
  dialects,
  startTestService,
  type TestOwner,
  type TestService,
} from './support/testService.js'
import { newWallet } from './support/wallet.js'

const ORDERS = 200
const LEASE_MS = 1_500
const MASTER_HEX = '07'.repeat(32)
const NO_FEES = { ...FEE_CONFIG, feeApproval: false }

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * Real `dn worker` processes are SIGKILLed at random points while 200
 * orders go through venues that add latency, reject, and time out after
 * accepting; venues with a protocol adapter are traded through it, against
 * their signature-checking fakes. Afterwards: no client order id reached a
 * venue twice, and no order is left anywhere but a final state or `unknown`.
 */
describe.each(dialects())('worker crashes (%s)', (dialect) => {
  const workersN = dialect === 'postgres' ? 2 : 1
  const seed = Number(process.env.DN_CRASH_SEED ?? Date.now() % 100_000)
  // seeded, so a failing run can be replayed from its seed
  const random = seededRandom(seed)
  let cli: string
  let venues: SimVenues
  let sim: FaucetServer
  let composed: ComposedVenues
  let svc: TestService
  let owner: TestOwner
  const children = new Set<ChildProcess>()
  let kills = 0
  /** each client order id's offers to a venue engine, as it answered them */
  const attempts = new Map<string, ('placed' | 'refused')[]>()

  function spawnWorker(i: number): ChildProcess {
    const db =
      dialect === 'postgres'
        ? (process.env.DN_TEST_PG_URL as string)
        : `sqlite:${svc.dbFile}`
    const child = spawn(
      process.execPath,
      [
        cli,
        'worker',
        '--db',
        db,
        '--sim-url',
        sim.url,
        '--lease-ms',
        String(LEASE_MS),
      ],
      {
        env: {
          ...process.env,
          DN_MASTER_KEY: MASTER_HEX,
          // 200 orders in seconds, the cancels of expiring limit orders,
          // the resends after kills and the lookups that reconcile orders
          // left unknown: a standard or builder Lighter account may send
          // 60 txs a minute, a premium one read 80 orders (24,000 weight);
          // a plus account has room for both (8,000 txs, 400 reads)
          DN_LIGHTER_TIER: 'plus',
          DN_WORKER_ID: `crash-${i}-${randomUUID().slice(0, 8)}`,
          ...(svc.pgSchema ? { DN_DB_SCHEMA: svc.pgSchema } : {}),
        },
        stdio: ['ignore', 'ignore', 'ignore'],
      },
    )
    children.add(child)
    child.once('exit', () => children.delete(child))
    return child
  }

  beforeAll(async () => {
    cli = await bundleCli()
    venues = createSimVenues({ seed })
    for (const v of VENUES) {
      const x = venues.exchanges[v]
      const place = x.place.bind(x)
      // every order the engine is offered, through paper adapters and
      // protocol fakes alike, even ones it refuses as duplicates
      ;(x as { place: typeof place }).place = (owner, o) => {
        const offers = attempts.get(o.clientOrderId) ?? []
        attempts.set(o.clientOrderId, offers)
        try {
          const placed = place(owner, o)
          offers.push('placed')
          return placed
        } catch (err) {
          offers.push('refused')
          throw err
        }
      }
    }
    svc = await startTestService({
      dialect,
      markets: venues.marketData,
      rateLimit: 100_000,
    })
    // the workers speak each venue's real protocol where it has one: they
    // find the fakes through the simulator's `GET /venues`. The binding
    // below spends from the deployment's budget as the workers do, so the
    // fakes' count of the whole run can be held to the shared share
    composed = await composeVenues(
      venues,
      {},
      {
        hlMainnet: true,
        asterTestnet: false,
        config: NO_FEES,
        lighterTier: 'plus',
        store: svc.store,
      },
    )
    sim = await startFaucetServer({
      venues,
      port: 0,
      protocolUrls: composed.protocolUrls,
    })
    const wallet = newWallet()
    const index: Partial<Record<VenueId, string>> = {}
    for (const v of VENUES)
      index[v] = String(
        venues.faucet(v, wallet.address.toLowerCase(), 10_000_000).accountIndex,
      )
    const protocol = VENUES.filter((v) => composed.protocolUrls[v])
    for (const venue of protocol) {
      await bindAtVenue({
        store: svc.store,
        masterKey: Buffer.from(MASTER_HEX, 'hex'),
        binder: composed.binders[venue],
        wallet,
        target: venue.startsWith('lighter')
          ? { venue, accountIndex: Number(index[venue]) }
          : { venue },
        config: NO_FEES,
      })
    }
    await bindVenues(
      svc.store,
      wallet.address,
      VENUES.filter((v) => !protocol.includes(v)),
      index,
    )
    owner = await createOwnerWithKey(svc, {
      wallet,
      bound: [],
      maxSizeUsd: 1_000_000,
    })
    for (const v of VENUES) {
      venues.exchanges[v].setFaults({
        latencyMs: 5,
        rejectRate: 0.05,
        timeoutAfterAcceptRate: 0.1,
      })
    }
  }, 120_000)

  afterAll(async () => {
    for (const c of children) c.kill('SIGKILL')
    await sim?.close()
    await composed?.close()
    await svc?.close()
    if (cli) rmSync(dirname(cli), { recursive: true, force: true })
  })

  test(`${ORDERS} order lifecycles with SIGKILLed workers (${workersN} at a time)`, async () => {
    const slots = Array.from({ length: workersN }, (_, i) => spawnWorker(i))
    let chaos = true
    const killer = (async () => {
      while (chaos) {
        // long enough for a restarted worker to get going, short enough to
        // land kills in the middle of submissions
        await sleep(400 + random() * 1_200)
        if (!chaos) break
        const i = Math.floor(random() * slots.length)
        slots[i]?.kill('SIGKILL')
        kills++
        slots[i] = spawnWorker(i)
      }
    })()

    const markets: [VenueId, string][] = [
      ['hl', 'SOL'],
      ['aster', 'SOLUSDT'],
      ['lighter', 'SOL'],
      ['lighter-mainnet', 'ETH'],
    ]
    const ids: string[] = []
    for (let n = 0; n < ORDERS; n++) {
      const [venue, market] = markets[n % markets.length] as [VenueId, string]
      const quote = await venues.marketData.quote(venue, market)
      const rules = await venues.marketData.rules(venue, market)
      const side = random() < 0.5 ? 'long' : 'short'
      const minBase = Math.max(Number(rules?.minBase), 12 / Number(quote.mark))
      const step = Number(rules?.sizeStep)
      const sizeBase = Math.ceil((minBase * (1 + random())) / step) * step
      const limit = random() < 0.4
      const away = side === 'long' ? 1 - random() * 0.002 : 1 + random() * 0.002
      const limitPrice = rules
        ? Number(roundPrice(rules, Number(quote.mark) * away, 'down').toFixed())
        : 0
      const body = limit
        ? {
            venue,
            market,
            side,
            orderType: 'limit',
            sizeBase: Number(sizeBase.toFixed(8)),
            limitPrice,
            expirySeconds: 5,
          }
        : {
            venue,
            market,
            side,
            orderType: 'market',
            sizeBase: Number(sizeBase.toFixed(8)),
          }
      const res = await call(svc, 'POST', '/v1/perp/orders', {
        key: owner.apiKey,
        body,
      })
      expect(res.status, res.text).toBe(202)
      ids.push(res.body.orderId)
      await sleep(random() * 60)
    }
    await sleep(3_000)
    chaos = false
    await killer

    // let the surviving workers finish: every order final, or unknown and
    // truly absent at the venue (an unknown the venue knows is reconciled)
    // the engine's own view; the Lighter fake keys engine orders by
    // account and client order index (all Lighter sends is that index)
    const engineId = (o: PerpOrderRecord) =>
      o.venue.startsWith('lighter')
        ? `lighter:${venues.exchanges[o.venue].accountIndex(owner.owner)}:${lighterClientOrderIndex(o.clientOrderId)}`
        : o.clientOrderId
    const venueView = async (o: PerpOrderRecord) =>
      venues.exchanges[o.venue].order(owner.owner, engineId(o), o.market)
    const deadline = Date.now() + 60_000
    let orders: PerpOrderRecord[] = []
    for (;;) {
      orders = (await Promise.all(
        ids.map((id) => svc.store.orders.get(id)),
      )) as PerpOrderRecord[]
      const busy: PerpOrderRecord[] = []
      for (const o of orders) {
        if (
          o.status === 'unknown'
            ? (await venueView(o)) !== null
            : !TERMINAL_ORDER_STATUSES.includes(o.status)
        )
          busy.push(o)
      }
      if (busy.length === 0 || Date.now() > deadline) break
      await sleep(250)
    }
    for (const c of slots) c?.kill('SIGTERM')

    const byStatus: Record<string, number> = {}
    const byVenue: Record<string, Record<string, number>> = {}
    for (const o of orders) {
      byStatus[o.status] = (byStatus[o.status] ?? 0) + 1
      const v = byVenue[o.venue] ?? {}
      v[o.status] = (v[o.status] ?? 0) + 1
      byVenue[o.venue] = v
    }
    if (process.env.DN_CRASH_DEBUG) {
      console.info(JSON.stringify(byVenue))
      for (const o of orders.filter((x) => x.error))
        console.info(o.venue, o.status, o.error)
    }
    console.info(
      `crash run (${dialect}, seed ${seed}): ${kills} kills, ${attempts.size} client order ids sent (${[...attempts.values()].filter((o) => o.length > 1).length} again after a refusal), ${JSON.stringify(byStatus)}`,
    )
    expect(ids.length).toBeGreaterThan(ORDERS * 0.9)
    for (const venue of VENUES.filter((v) => composed.protocolUrls[v])) {
      // the workers really traded this venue through its protocol adapter
      expect(byVenue[venue]?.filled, venue).toBeGreaterThan(0)
      if (venue === 'hl') {
        const b = await svc.store.bindings.get(owner.owner, 'hl')
        const agent = (b?.credentialRef ?? '').toLowerCase()
        const next = await svc.store.counters.next(`hl-nonce|${agent}`, 0)
        expect(next, 'nonces drawn from the shared counter').toBeGreaterThan(
          1e12,
        )
      }
    }
    expect(kills).toBeGreaterThan(5)
    const stuck = orders.filter(
      (o) =>
        !TERMINAL_ORDER_STATUSES.includes(o.status) && o.status !== 'unknown',
    )
    // what the service knew of each, and what the venue shows: enough to
    // tell a worker that never came back to it from a venue that refused
    const stuckSeen = await Promise.all(
      stuck.map(async (o) =>
        JSON.stringify({
          id: o.id,
          venue: o.venue,
          status: o.status,
          type: o.orderType,
          error: o.error,
          expiresAt: o.expiresAt,
          cancelRequestedAt: o.cancelRequestedAt,
          nextCheckAt: o.nextCheckAt,
          leaseOwner: o.leaseOwner,
          leaseExpiresAt: o.leaseExpiresAt,
          updatedAt: o.updatedAt,
          at: new Date().toISOString(),
          venueState: (await venueView(o))?.state ?? null,
        }),
      ),
    )
    // a venue that refused for rate holds every send off for its window
    const refusedForRate = Object.entries(composed.rateLimitUsage()).flatMap(
      ([venue, buckets]) =>
        (buckets ?? [])
          .filter((b) => b.refused > 0)
          .map((b) => `${venue} ${b.limit} refused ${b.refused}`),
    )
    expect(stuckSeen, `seed ${seed}; ${refusedForRate.join(', ')}`).toEqual([])
    for (const v of VENUES) {
      for (const [cloid, n] of venues.exchanges[v].stats().byClientOrderId) {
        expect(n, `${v} ${cloid} placed ${n} times (seed ${seed})`).toBe(1)
      }
    }
    // no client order id was offered to a venue again once it had taken
    // it: a send goes again only when the one before provably did nothing
    // (refused, or proven never placed past its window), never after the
    // venue placed it
    const again = [...attempts].filter(([, offers]) =>
      offers.slice(0, -1).includes('placed'),
    )
    expect(again, `seed ${seed}`).toEqual([])
    expect(orders.filter((o) => /duplicate/i.test(o.error ?? ''))).toEqual([])
    // our record agrees with the venue's for every order the venue has
    for (const o of orders) {
      const seen = await venueView(o)
      if (o.status === 'unknown') {
        // what the service knew of it, for the next one to read this
        const known = JSON.stringify({
          venue: o.venue,
          error: o.error,
          submittedAt: o.submittedAt,
          observedAt: o.observedAt,
          nextCheckAt: o.nextCheckAt,
          leaseOwner: o.leaseOwner,
          updatedAt: o.updatedAt,
          at: new Date().toISOString(),
        })
        expect(
          seen,
          `unknown ${o.id} exists at the venue (seed ${seed}): ${known}`,
        ).toBeNull()
      } else {
        // a fill we recorded is a venue order the engine knows
        if (Number(o.filledBase) > 0) {
          expect(
            seen,
            `${o.venue} ${o.id} missing (seed ${seed})`,
          ).not.toBeNull()
        }
        if (seen) {
          expect(o.filledBase, `${o.id} fills (seed ${seed})`).toBe(
            seen.filledBase,
          )
        }
      }
    }
    // counted at the fakes, which enforce the venues' limits: no venue
    // ever refused a worker for rate, and on PostgreSQL the workers
    // together (the budget shared through the store) kept to half
    const usage = composed.rateLimitUsage()
    if (process.env.DN_CRASH_DEBUG) console.info(JSON.stringify(usage))
    for (const [venue, buckets] of Object.entries(usage)) {
      for (const b of buckets ?? []) {
        const what = `${venue} ${b.limit} ${b.subject} (seed ${seed})`
        expect(b.refused, what).toBe(0)
        if (dialect === 'postgres') {
          expect(b.peak, what).toBeLessThanOrEqual(b.capacity * 0.5)
        }
      }
    }
  }, 180_000)
})
