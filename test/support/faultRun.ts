import { type ChildProcess, spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { appendFileSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { type ComposedVenues, composeVenues, deriveKey } from '@dn/cli'
import {
  createAesGcmSecrets,
  credentialAad,
  NEVER_PLACED_AFTER_MS,
  roundPrice,
  VENUES,
  type VenueId,
} from '@dn/core'
import {
  createSimVenues,
  type FaucetServer,
  type SimVenues,
  startFaucetServer,
} from '@dn/venues/sim'
import {
  hashSeed,
  seededRandom,
} from '../../packages/venues/src/sim/seededRandom.js'
import { FEE_CONFIG } from './bindingFixtures.js'
import { bundleCli } from './bundleCli.js'
import {
  type FaultKind,
  type FaultProxy,
  startFaultProxy,
} from './faultProxy.js'
import {
  call,
  createOwnerWithKey,
  type Dialect,
  startTestService,
  type TestOwner,
  type TestService,
} from './testService.js'
import {
  atRest,
  countOffers,
  loadRecords,
  type PropertyTally,
  type PropertyWorld,
  tallyVenueProperty,
} from './venueProperty.js'
import { newWallet } from './wallet.js'

const MASTER_HEX = '0b'.repeat(32)
const NO_FEES = { ...FEE_CONFIG, feeApproval: false }
const LEASE_MS = 1_500

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * The markets an owner's tasks trade, by asset (BTC and SOL on every
 * venue): a task takes one asset and two venues of it. An owner runs two
 * task loops at once, so its tasks share venue markets with each other
 * (the position ledger keeps them apart), and its direct orders trade
 * BTC too.
 */
const TASK_MARKETS: readonly (readonly (readonly [VenueId, string])[])[] = [
  [
    ['hl', 'BTC'],
    ['aster', 'BTCUSDT'],
    ['lighter', 'BTC'],
    ['lighter-mainnet', 'BTC'],
  ],
  [
    ['hl', 'SOL'],
    ['aster', 'SOLUSDT'],
    ['lighter', 'SOL'],
    ['lighter-mainnet', 'SOL'],
  ],
]

/** Each owner's direct-order markets: ETH alone, BTC shared with tasks. */
const ORDER_MARKETS: readonly (readonly [VenueId, string])[] = [
  ['hl', 'ETH'],
  ['aster', 'ETHUSDT'],
  ['lighter', 'ETH'],
  ['lighter-mainnet', 'ETH'],
  ['hl', 'BTC'],
  ['aster', 'BTCUSDT'],
  ['lighter', 'BTC'],
]

export interface FaultRunOptions {
  readonly dialect: Dialect
  readonly seed: number
  /** share of venue requests faulted while the chaos lasts */
  readonly rate: number
  readonly owners: number
  /** how long tasks and orders are started under faults */
  readonly chaosMs: number
  /** `dn worker` processes at a time */
  readonly workers: number
  /** ms between SIGKILLs of a random worker (0: none) */
  readonly killEveryMs: number
  /** each owner's pause between direct orders, ms: a uniform draw */
  readonly orderPauseMs: readonly [number, number]
}

export interface FaultRunReport {
  readonly seed: number
  readonly dialect: Dialect
  readonly violations: string[]
  readonly checks: PropertyTally['checks']
  readonly faults: Partial<Record<FaultKind, number>>
  /** per venue, its ten busiest endpoints and how many requests each */
  readonly requests: Record<string, Record<string, number>>
  readonly kills: number
  readonly lifecycles: number
  readonly tasks: Record<string, number>
  readonly orders: Record<string, number>
  /** direct orders that ended expired because no send reached the venue */
  readonly expiredUndelivered: number
  /** those orders, by venue and id, to follow in the workers' logs */
  readonly undelivered: readonly string[]
  /** why orders ended expired, with how many each */
  readonly expiredWhy: Record<string, number>
  readonly settleMs: number
  readonly seconds: number
}

/**
 * One seeded run of the venue-fault property: dn's API in this process,
 * `dn worker` processes that are SIGKILLed at random, and every venue
 * behind a fault-injecting proxy in front of its protocol fake. Owners
 * run task lifecycles (open, resize, close, cancel) and direct orders
 * (market, limit, reduce-only, cancel) while faults are on; then faults
 * are turned off, the workers left alone, and the run waits for every
 * task and order to come to rest (at most the never-placed bound plus a
 * margin) before the property is checked at the venues.
 */
export async function runFaults(o: FaultRunOptions): Promise<FaultRunReport> {
  const started = Date.now()
  const random = seededRandom(o.seed)
  const cli = await bundleCli()
  const sim = createSimVenues({ seed: o.seed })
  const offers = countOffers(sim)
  const children = new Set<ChildProcess>()
  const processFailures: string[] = []
  const apiFailures: string[] = []
  const proxies: Partial<Record<VenueId, FaultProxy>> = {}
  let svc: TestService | undefined
  let composed: ComposedVenues | undefined
  let faucet: FaucetServer | undefined
  let ending = false
  try {
    svc = await startTestService({
      dialect: o.dialect,
      markets: sim.marketData,
      rateLimit: 100_000,
    })
    const service = svc
    composed = await composeVenues(
      sim,
      {},
      {
        hlMainnet: true,
        asterTestnet: false,
        config: NO_FEES,
        lighterTier: 'plus',
        store: svc.store,
      },
    )
    for (const v of VENUES) {
      const target = composed.protocolUrls[v]
      if (!target) throw new Error(`${v} has no protocol fake`)
      proxies[v] = await startFaultProxy({
        venue: v,
        target,
        seed: hashSeed(o.seed, v),
      })
    }
    faucet = await startFaucetServer({
      venues: sim,
      port: 0,
      protocolUrls: Object.fromEntries(
        VENUES.map((v) => [v, proxies[v]?.url as string]),
      ),
    })
    const simUrl = faucet.url
    const owners: TestOwner[] = []
    for (let i = 0; i < o.owners; i++) {
      owners.push(await newOwner(svc, sim, composed))
    }

    let workerN = 0
    const spawnWorker = (): ChildProcess => {
      const n = workerN++
      const child = spawn(
        process.execPath,
        [
          cli,
          'worker',
          '--db',
          o.dialect === 'postgres'
            ? (process.env.DN_TEST_PG_URL as string)
            : `sqlite:${service.dbFile}`,
          '--sim-url',
          simUrl,
          '--lease-ms',
          String(LEASE_MS),
        ],
        {
          env: {
            ...process.env,
            DN_MASTER_KEY: MASTER_HEX,
            DN_LIGHTER_TIER: 'plus',
            ...(process.env.DN_FAULT_LOGS ? { DN_LOG_LEVEL: 'debug' } : {}),
            DN_WORKER_ID: `faults-${n}-${randomUUID().slice(0, 8)}`,
            ...(service.pgSchema ? { DN_DB_SCHEMA: service.pgSchema } : {}),
          },
          stdio: ['ignore', 'ignore', 'pipe'],
        },
      )
      const err: Buffer[] = []
      child.stderr?.on('data', (d: Buffer) => err.push(d))
      // DN_FAULT_LOGS=<dir>: each worker's log kept, to follow one order
      const logs = process.env.DN_FAULT_LOGS
      if (logs) {
        const file = join(logs, `${o.dialect}-worker-${n}.log`)
        child.stderr?.on('data', (d: Buffer) => appendFileSync(file, d))
      }
      children.add(child)
      child.once('exit', (code, signal) => {
        children.delete(child)
        const text = Buffer.concat(err).toString()
        if (/unhandled/i.test(text)) {
          processFailures.push(
            `worker ${n} reported an unhandled rejection: ${text.slice(-2_000)}`,
          )
        } else if (signal === null && code !== 0 && !ending) {
          processFailures.push(
            `worker ${n} exited ${code}: ${text.slice(-2_000)}`,
          )
        }
      })
      return child
    }
    const slots = Array.from({ length: o.workers }, spawnWorker)

    let apiCalls = 0
    const taskIds: string[] = []
    const orderIds: string[] = []
    let lifecycles = 0
    let chaos = true
    for (const p of Object.values(proxies)) p?.setRate(o.rate)

    // every answer of dn's API is held to the contract's 5xx rule
    const api = async (
      owner: TestOwner,
      method: string,
      path: string,
      body?: unknown,
    ) => {
      const res = await call(service, method, path, {
        key: owner.apiKey,
        ...(body === undefined ? {} : { body }),
      })
      apiCalls++
      if (
        res.status >= 500 &&
        !(res.status === 503 && typeof res.body?.code === 'string')
      ) {
        apiFailures.push(
          `${method} ${path} answered ${res.status}: ${res.text}`,
        )
      }
      return res
    }
    const taskOf = async (owner: TestOwner, id: string) =>
      (await api(owner, 'GET', `/v1/delta-neutral/tasks/${id}`)).body?.task

    // one task at a time in a loop: a task is waited for until it
    // is where the loop wants it, or the chaos is over (then the settling
    // window drives it, and the loop starts nothing more)
    const waitTask = async (
      owner: TestOwner,
      id: string,
      until: (status: string) => boolean,
    ) => {
      for (;;) {
        const t = await taskOf(owner, id)
        if ((t && until(t.status)) || !chaos) return t
        await sleep(250)
      }
    }
    const terminal = (s: string) =>
      ['closed', 'cancelled', 'failed'].includes(s)

    const taskLoop = async (owner: TestOwner) => {
      while (chaos) {
        const markets = TASK_MARKETS[
          Math.floor(random() * TASK_MARKETS.length)
        ] as readonly (readonly [VenueId, string])[]
        const longAt = Math.floor(random() * markets.length)
        const shortAt =
          (longAt + 1 + Math.floor(random() * (markets.length - 1))) %
          markets.length
        const [longVenue, longMarket] = markets[longAt] as [VenueId, string]
        const [shortVenue, shortMarket] = markets[shortAt] as [VenueId, string]
        const res = await api(owner, 'POST', '/v1/delta-neutral/tasks', {
          longVenue,
          longMarket,
          shortVenue,
          shortMarket,
          sizeUsd: 150 + Math.floor(random() * 250),
          autoClose: false,
        })
        if (res.status !== 202) {
          apiFailures.push(`task refused ${res.status}: ${res.text}`)
          return
        }
        const id = res.body.taskId as string
        taskIds.push(id)
        lifecycles++
        // a cancel may race the worker's opening: it lands (nothing was
        // sent) or is refused with 409 (the legs are on their way)
        if (random() < 0.1) {
          await api(owner, 'POST', `/v1/delta-neutral/tasks/${id}/cancel`, {})
          await waitTask(owner, id, (s) => s !== 'pending')
        }
        let t = await waitTask(owner, id, (s) => s === 'running' || terminal(s))
        if (t && terminal(t.status)) continue
        if (t?.status !== 'running') return
        if (random() < 0.4) {
          const f = 0.6 + random() * 0.8
          await api(owner, 'POST', `/v1/delta-neutral/tasks/${id}/resize`, {
            longTargetBase: Number((Number(t.longSize) * f).toPrecision(6)),
            shortTargetBase: Number((Number(t.shortSize) * f).toPrecision(6)),
          })
          t = await waitTask(owner, id, (s) => s === 'running' || terminal(s))
          if (t && terminal(t.status)) continue
          if (t?.status !== 'running') return
        }
        await sleep(random() * 3_000)
        // some stay running, to be held to their venues' positions
        if (random() < 0.15) return
        await api(owner, 'POST', `/v1/delta-neutral/tasks/${id}/close`, {})
        const closed = await waitTask(owner, id, terminal)
        if (!closed || !terminal(closed.status)) return
      }
    }

    const orderLoop = async (owner: TestOwner) => {
      const resting: string[] = []
      while (chaos) {
        const [least, most] = o.orderPauseMs
        await sleep(least + random() * (most - least))
        const what = random()
        if (what < 0.15 && resting.length > 0) {
          const id = resting.splice(Math.floor(random() * resting.length), 1)[0]
          await api(owner, 'POST', `/v1/perp/orders/${id}/cancel`, {})
          continue
        }
        const [venue, market] = ORDER_MARKETS[
          Math.floor(random() * ORDER_MARKETS.length)
        ] as [VenueId, string]
        const quote = await sim.marketData.quote(venue, market)
        const rules = await sim.marketData.rules(venue, market)
        if (!rules) throw new Error(`${venue} ${market} is not listed`)
        const mark = Number(quote.mark)
        const step = Number(rules.sizeStep)
        const held = Number(
          sim.exchanges[venue]
            .positions(owner.owner)
            .find((p) => p.market === market)?.size ?? '0',
        )
        const reduce = what < 0.3 && held !== 0
        const side = reduce
          ? held > 0
            ? 'short'
            : 'long'
          : random() < 0.5
            ? 'long'
            : 'short'
        const minBase = Math.max(Number(rules.minBase), 15 / mark)
        const sizeBase = reduce
          ? Math.abs(held)
          : Math.ceil((minBase * (1 + random())) / step) * step
        const limit = !reduce && random() < 0.4
        const away =
          side === 'long' ? 1 - random() * 0.003 : 1 + random() * 0.003
        const body = limit
          ? {
              venue,
              market,
              side,
              orderType: 'limit',
              sizeBase: Number(sizeBase.toFixed(8)),
              limitPrice: Number(
                roundPrice(rules, mark * away, 'down').toFixed(),
              ),
              expirySeconds: 30 + Math.floor(random() * 90),
            }
          : {
              venue,
              market,
              side,
              orderType: 'market',
              sizeBase: Number(sizeBase.toFixed(8)),
              ...(reduce ? { reduceOnly: true } : {}),
            }
        const res = await api(owner, 'POST', '/v1/perp/orders', body)
        if (res.status === 202) {
          orderIds.push(res.body.orderId)
          if (limit) resting.push(res.body.orderId)
        } else if (res.status !== 400) {
          apiFailures.push(`order refused ${res.status}: ${res.text}`)
        }
      }
    }

    let kills = 0
    const killer = (async () => {
      if (o.killEveryMs <= 0) return
      while (chaos) {
        await sleep(o.killEveryMs * (0.5 + random()))
        if (!chaos) break
        const i = Math.floor(random() * slots.length)
        slots[i]?.kill('SIGKILL')
        kills++
        slots[i] = spawnWorker()
      }
    })()

    const loops = owners.flatMap((w) => [
      taskLoop(w),
      taskLoop(w),
      orderLoop(w),
    ])
    await sleep(o.chaosMs)
    chaos = false
    await killer
    // faults off: what was started goes on to its end on a healthy venue
    for (const p of Object.values(proxies)) p?.setRate(0)
    const faultsOff = Date.now()
    await Promise.all(loops)
    const world: PropertyWorld = {
      sim,
      offers,
      store: service.store,
      taskIds,
      orderIds,
      apiFailures,
      apiCalls: () => apiCalls,
      processFailures,
      processes: () => workerN,
    }
    // an uncertain send is known never to have landed only past its
    // never-placed bound: the window must hold one begun just before
    const deadline = faultsOff + NEVER_PLACED_AFTER_MS + 30_000
    while (Date.now() < deadline && !(await atRest(world))) await sleep(500)
    const settleMs = Date.now() - faultsOff
    // orders rest, tasks rest: one more look lets the last reads land
    await sleep(2_000)
    ending = true
    for (const c of children) c.kill('SIGTERM')
    const { violations, checks } = await tallyVenueProperty(world)

    const { tasks, orders } = await loadRecords(world)
    const count = (xs: readonly string[]) => {
      const m: Record<string, number> = {}
      for (const x of xs) m[x] = (m[x] ?? 0) + 1
      return m
    }
    const faults: Partial<Record<FaultKind, number>> = {}
    for (const p of Object.values(proxies)) {
      for (const e of p?.events() ?? [])
        faults[e.kind] = (faults[e.kind] ?? 0) + 1
    }
    const requests: Record<string, Record<string, number>> = {}
    for (const [v, p] of Object.entries(proxies)) {
      requests[v] = Object.fromEntries(
        [...(p?.requests() ?? [])].sort((a, b) => b[1] - a[1]).slice(0, 10),
      )
    }
    const undelivered = orders.filter(
      (x) =>
        x.status === 'expired' &&
        /never received|could be submitted/.test(x.error ?? ''),
    )
    return {
      seed: o.seed,
      dialect: o.dialect,
      violations,
      checks,
      faults,
      requests,
      kills,
      lifecycles,
      tasks: count(tasks.map((t) => t.status)),
      orders: count(orders.map((x) => x.status)),
      expiredUndelivered: undelivered.length,
      undelivered: undelivered.map(
        (x) => `${x.venue} ${x.orderType} ${x.id} ${x.createdAt}`,
      ),
      expiredWhy: count(
        orders
          .filter((x) => x.status === 'expired')
          .map(
            (x) => `${x.venue} ${x.orderType}: ${x.error ?? 'at its deadline'}`,
          ),
      ),
      settleMs,
      seconds: Math.round((Date.now() - started) / 1000),
    }
  } finally {
    ending = true
    for (const c of children) c.kill('SIGKILL')
    for (const p of Object.values(proxies)) await p?.close()
    await faucet?.close()
    await composed?.close()
    await svc?.close()
    rmSync(dirname(cli), { recursive: true, force: true })
  }
}

/** An owner funded and bound on every venue, with a key for all four. */
async function newOwner(
  svc: TestService,
  sim: SimVenues,
  composed: ComposedVenues,
): Promise<TestOwner> {
  const wallet = newWallet()
  const owner = wallet.address.toLowerCase()
  const secrets = createAesGcmSecrets(
    deriveKey(Buffer.from(MASTER_HEX, 'hex'), 'venue-credentials'),
  )
  for (const venue of VENUES) {
    const { accountIndex } = sim.faucet(venue, owner, 1_000_000)
    const lighter = venue.startsWith('lighter')
    // as a signed binding leaves it: the credential at the fake, encrypted
    // under the deployment's key in the database
    const seeded = composed.seedBinding(
      venue,
      owner,
      lighter ? accountIndex : undefined,
    )
    const now = new Date().toISOString()
    await svc.store.bindings.upsert({
      id: randomUUID(),
      owner,
      venue,
      status: 'bound',
      accountIndex: lighter ? String(accountIndex) : null,
      credentialRef: seeded.credentialRef,
      credentialCiphertext: secrets.encrypt(
        seeded.secret,
        credentialAad(owner, venue),
      ),
      unusableCode: null,
      createdAt: now,
      updatedAt: now,
    })
  }
  return createOwnerWithKey(svc, {
    wallet,
    bound: [],
    maxSizeUsd: 1_000_000,
  })
}

/** A report in a few lines, for the test's output and the bench's table. */
export function describeRun(r: FaultRunReport): string {
  return [
    `venue faults (${r.dialect}, seed ${r.seed}): ${r.seconds} s, ${r.lifecycles} task lifecycles, ${r.kills} kills, settled ${Math.round(r.settleMs / 1000)} s after faults off`,
    `  faults ${JSON.stringify(r.faults)}`,
    `  requests ${JSON.stringify(r.requests)}`,
    `  tasks ${JSON.stringify(r.tasks)}, orders ${JSON.stringify(r.orders)}, expired undelivered ${r.expiredUndelivered}`,
    `  expired ${JSON.stringify(r.expiredWhy)}`,
    `  violations ${r.violations.length}${r.violations.length ? `:\n    ${r.violations.join('\n    ')}` : ''}`,
  ].join('\n')
}
