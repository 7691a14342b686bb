// Worker benchmark: the HTTP server and the worker loop in one process (as
// `dn up` runs them) on SQLite with in-process simulated venues.
// 1. accept-to-venue latency of market orders, worker woken by the store
//    notification vs. the same worker deaf to it (poll fallback);
// 2. monitoring throughput of running paired tasks vs. the same loop with
//    store-only steps.
// Run with `npm run bench` (builds first, after bench/http.mjs).

import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { Worker } from 'node:worker_threads'
import pg from 'pg'
import {
  composeServerDeps,
  composeWorkerDeps,
  deriveKey,
} from '../packages/cli/dist/index.js'
import {
  ACTIVE_ORDER_STATUSES,
  ACTIVE_TASK_STATUSES,
  createAdapterOrderLookup,
  createAesGcmSecrets,
  MONITOR_MS,
  msToIso,
  runMonitorSweep,
  runWorkerRound,
  shareAccountReads,
  startWorker,
  WORKER_SLOTS,
} from '../packages/core/dist/index.js'
import { createPostgresStore } from '../packages/core/dist/store/postgres.js'
import { createSqliteStore } from '../packages/core/dist/store/sqlite.js'
import { silentLogger, startHttpServer } from '../packages/server/dist/index.js'
import { createSimVenues } from '../packages/venues/dist/sim/index.js'
import { createBenchOwner } from './benchOwner.mjs'

const env = process.env
const ORDERS = Number(env.BENCH_ORDERS ?? 300)
const POLL_ORDERS = Number(env.BENCH_POLL_ORDERS ?? 100)
const BURST = Number(env.BENCH_BURST ?? 50)
const BURST_REPS = Number(env.BENCH_BURST_REPS ?? 5)
const GAP_MS = Number(env.BENCH_GAP_MS ?? 20)
const TASKS = Number(env.BENCH_TASKS ?? 1000)
const TASK_OWNERS = Number(env.BENCH_TASK_OWNERS ?? 100)
const VENUE_IDS = ['hl', 'lighter', 'lighter-mainnet', 'aster']
const BATCH = Number(env.BENCH_BATCH ?? 16)
const MONITOR_SECONDS = Number(env.BENCH_MONITOR_SECONDS ?? 10)

const MASTER = randomBytes(32)
const nowMs = () => Number(process.hrtime.bigint()) / 1e6
let workerErrors = 0
const workerLogger = {
  info() {},
  error(msg, fields) {
    workerErrors++
    if (workerErrors <= 5) console.error('worker error:', msg, fields)
  },
}

/** PostgreSQL for the latency part too, when a URL is set. */
const PG = env.BENCH_PG_URL ?? env.DN_TEST_PG_URL

/**
 * A store (SQLite in a temp dir, or a fresh PostgreSQL schema), the HTTP
 * server on it, and what to drop at the end.
 */
async function openService({ markets, adapters, clock, db = 'SQLite' }) {
  const dir = mkdtempSync(join(tmpdir(), 'dn-bench-worker-'))
  const schema = `bench_worker_${randomBytes(4).toString('hex')}`
  const store =
    db === 'PostgreSQL'
      ? await createPostgresStore({ connectionString: PG, schema })
      : await createSqliteStore({ filename: join(dir, 'dn.sqlite') })
  const deps = composeServerDeps({
    store,
    markets,
    masterKey: MASTER,
    env: 'bench',
    rateLimit: 10_000_000,
    logger: silentLogger,
    ...(clock ? { clock } : {}),
    venueOrders: createAdapterOrderLookup({
      repos: store,
      secrets: createAesGcmSecrets(deriveKey(MASTER, 'venue-credentials')),
      adapters,
    }),
  })
  const srv = await startHttpServer(deps, { port: 0 })
  return {
    store,
    url: srv.url,
    async close() {
      await srv.close()
      await store.close()
      rmSync(dir, { recursive: true, force: true })
      if (db === 'PostgreSQL') {
        const pgc = new pg.Client({ connectionString: PG })
        await pgc.connect()
        await pgc.query(`drop schema if exists ${schema} cascade`)
        await pgc.end()
      }
    },
  }
}

/**
 * As test/support/workerHarness.ts: faucet every venue of the owner, bind
 * them with the faucet's account index, create a key via the signed route.
 */
function createOwner(svc, venues, venueIds) {
  return createBenchOwner({
    url: svc.url,
    store: svc.store,
    venueIds,
    maxSizeUsd: 100_000,
    faucet: (venue, owner) => venues.faucet(venue, owner),
  })
}

/** The store with `listen` that never fires: the worker only polls. */
function deaf(store) {
  return new Proxy(store, {
    get: (target, prop) =>
      prop === 'listen'
        ? async () => async () => {}
        : Reflect.get(target, prop, target),
  })
}

function pct(sorted, p) {
  if (sorted.length === 0) return Number.NaN
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]
}

const ms = (x) => (Number.isFinite(x) ? x.toFixed(1) : '-')

// ---------------------------------------------------------------- latency

async function latency(db) {
  const venues = createSimVenues({ seed: 1 })
  /** clientOrderId → when the venue adapter got the order (hrtime ms) */
  const venueAt = new Map()
  const adapters = Object.fromEntries(
    Object.entries(venues.adapters).map(([id, a]) => [
      id,
      {
        ...a,
        place(cred, order) {
          venueAt.set(order.clientOrderId, nowMs())
          return a.place(cred, order)
        },
      },
    ]),
  )
  const svc = await openService({ markets: venues.marketData, adapters, db })
  const owners = []
  for (let i = 0; i < Math.max(BURST, 1); i++) {
    owners.push(await createOwner(svc, venues, ['hl', 'aster']))
  }
  let client
  let seq = 0
  const ask = (msg) =>
    new Promise((resolve, reject) => {
      const id = seq++
      const on = (reply) => {
        if (reply.id !== id) return
        client.off('message', on)
        if (reply.error) reject(new Error(reply.error))
        else resolve(reply.results)
      }
      client.on('message', on)
      client.postMessage({ ...msg, id, url: svc.url })
    })

  /**
   * Sends `reps` times (300 ms apart), waiting each time until every
   * accepted order reached the venue; latencies of all reps together, and
   * per rep how long accepting all and placing all took (median of reps).
   */
  async function measure(name, msg, reps = 1) {
    pickups.length = 0
    const lat = []
    // the issue's accept → pickup: the claim minus the 202's arrival at
    // the client (0 when the claim came first: the worker is woken by the
    // commit, before the answer is written)
    const fromAccept = []
    const accepted = []
    const atVenue = []
    let n = 0
    let non202 = 0
    let missing = 0
    for (let rep = 0; rep < reps; rep++) {
      if (rep > 0) await sleep(300)
      const results = await ask(msg)
      const ok = results
        .filter((r) => r.status === 202)
        .map((r) => ({ ...r, cloid: `0x${r.orderId.replaceAll('-', '')}` }))
      const deadline = nowMs() + 30_000
      while (ok.some((r) => !venueAt.has(r.cloid)) && nowMs() < deadline) {
        await sleep(5)
      }
      const placed = ok.filter((r) => venueAt.has(r.cloid))
      n += results.length
      non202 += results.length - ok.length
      missing += ok.length - placed.length
      for (const r of placed) {
        lat.push(venueAt.get(r.cloid) - r.acceptedAt)
        const claimed = claimedAt.get(r.orderId)
        if (claimed !== undefined) {
          fromAccept.push(Math.max(0, claimed - r.acceptedAt))
        }
      }
      const first = Math.min(...ok.map((r) => r.acceptedAt))
      accepted.push(Math.max(...ok.map((r) => r.acceptedAt)) - first)
      atVenue.push(Math.max(...placed.map((r) => venueAt.get(r.cloid))) - first)
    }
    lat.sort((a, b) => a - b)
    const median = (xs) =>
      pct(
        xs.sort((a, b) => a - b),
        0.5,
      )
    return {
      name,
      n,
      non202,
      missing,
      min: lat[0],
      p50: pct(lat, 0.5),
      p99: pct(lat, 0.99),
      max: lat.at(-1),
      pickupP50: pct(
        pickups.sort((a, b) => a - b),
        0.5,
      ),
      pickupP99: pct(pickups, 0.99),
      acceptPickupP50: pct(
        fromAccept.sort((a, b) => a - b),
        0.5,
      ),
      acceptPickupP99: pct(fromAccept, 0.99),
      accepted: median(accepted),
      atVenue: median(atVenue),
    }
  }

  // created → pickup (the order's createdAt to its claim), from the
  // worker's own pickup events
  const pickups = []
  /** orderId → when the worker claimed it (hrtime ms) */
  const claimedAt = new Map()
  const observer = {
    observe(e) {
      if (e.type !== 'pickup' || e.kind !== 'order') return
      pickups.push(e.waitedMs)
      claimedAt.set(e.id, nowMs())
    },
  }
  const rows = []
  for (const mode of ['wake-up', 'poll only']) {
    const n = mode === 'wake-up' ? ORDERS : POLL_ORDERS
    const worker = startWorker(
      composeWorkerDeps({
        store: mode === 'wake-up' ? svc.store : deaf(svc.store),
        adapters,
        masterKey: MASTER,
        logger: workerLogger,
        observer,
      }),
    )
    client = new Worker(new URL('./orderClient.mjs', import.meta.url))
    rows.push(
      await measure(
        `${BURST_REPS} bursts of ${BURST}, ${mode} (${db})`,
        { kind: 'burst', keys: owners.map((o) => o.apiKey) },
        BURST_REPS,
      ),
    )
    await sleep(300)
    rows.push(
      await measure(`sequential, ${mode} (${db})`, {
        kind: 'sequential',
        gapMs: GAP_MS,
        keys: Array.from(
          { length: n },
          (_, i) => owners[i % owners.length].apiKey,
        ),
      }),
    )
    await client.terminate()
    await worker.stop()
  }
  await svc.close()
  return rows
}

// ------------------------------------------------------------- monitoring

/** A clock the bench moves, shared by server, venues and worker. */
function movableClock(start = Date.now()) {
  let now = start
  return {
    now: () => now,
    advance(ms) {
      now += ms
    },
  }
}

/**
 * Counts calls of `store.<repo>.<method>` into the map `counting.into`
 * (calls inside transactions not included).
 */
function counting(store) {
  const wrapRepo = (name, repo) =>
    new Proxy(repo, {
      get(target, prop) {
        const v = Reflect.get(target, prop, target)
        if (typeof v !== 'function') return v
        return (...args) => {
          const k = `${name}.${String(prop)}`
          const counts = counting.into
          counts?.set(k, (counts.get(k) ?? 0) + 1)
          return v.apply(target, args)
        }
      },
    })
  const repos = new Map()
  const proxy = new Proxy(store, {
    get(target, prop) {
      const v = Reflect.get(target, prop, target)
      if (typeof v !== 'object' || v === null) return v
      if (!repos.has(prop)) repos.set(prop, wrapRepo(String(prop), v))
      return repos.get(prop)
    },
  })
  return proxy
}

/** Venue pairs the monitored tasks use, round-robin: all four venues. */
const TASK_PAIRS = [
  ['hl', 'BTC', 'aster', 'BTCUSDT'],
  ['hl', 'ETH', 'lighter', 'ETH'],
  ['aster', 'SOLUSDT', 'lighter', 'SOL'],
  ['lighter', 'BTC', 'lighter-mainnet', 'BTC'],
]
const HOUR_MS = 3_600_000

async function monitoring() {
  const clock = movableClock()
  const venues = createSimVenues({ seed: 1, clock })
  const svc = await openService({
    markets: venues.marketData,
    adapters: venues.adapters,
    clock,
  })
  const owners = []
  for (let i = 0; i < TASK_OWNERS; i++) {
    owners.push(await createOwner(svc, venues, VENUE_IDS))
  }
  const ids = []
  const create = async (i) => {
    const [longVenue, longMarket, shortVenue, shortMarket] =
      TASK_PAIRS[i % TASK_PAIRS.length]
    const res = await fetch(`${svc.url}/v1/delta-neutral/tasks`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${owners[i % TASK_OWNERS].apiKey}`,
        'content-type': 'application/json',
        'idempotency-key': randomUUID(),
      },
      body: JSON.stringify({
        longVenue,
        shortVenue,
        longMarket,
        shortMarket,
        sizeUsd: 200,
        autoClose: false,
      }),
    })
    const body = await res.json()
    if (res.status !== 202) throw new Error(`task: ${JSON.stringify(body)}`)
    ids.push(body.taskId)
  }
  for (let i = 0; i < TASKS; i += 10) {
    await Promise.all(
      Array.from({ length: Math.min(10, TASKS - i) }, (_, j) => create(i + j)),
    )
  }

  const store = counting(svc.store)
  const deps = composeWorkerDeps({
    store,
    // as startWorker: one positions read per account serves its tasks
    adapters: shareAccountReads(venues.adapters, clock),
    masterKey: MASTER,
    clock,
    workerId: 'bench-worker',
    logger: workerLogger,
  })
  const at = msToIso(clock.now())
  await svc.store.workers.heartbeat({
    id: deps.workerId,
    startedAt: at,
    heartbeatAt: at,
    fencedAt: null,
  })
  const statuses = async () => {
    const by = {}
    for (const id of ids) {
      const t = await svc.store.tasks.get(id)
      by[t.status] = (by[t.status] ?? 0) + 1
    }
    return by
  }
  const openStart = nowMs()
  for (let i = 0; i < 2000; i++) {
    if ((await runWorkerRound(deps, BATCH, false)) > 0) continue
    if ((await statuses()).running === TASKS) break
    clock.advance(1_000)
  }
  const opened = await statuses()
  const openSeconds = (nowMs() - openStart) / 1000
  if (opened.running !== TASKS) {
    throw new Error(`tasks not all running: ${JSON.stringify(opened)}`)
  }
  // one sweep first: every task shows its snapshots before timing
  await runMonitorSweep(deps)

  /** Runs passes of `loop` for `seconds`, timing each. */
  async function timed(loop, seconds) {
    const end = nowMs() + seconds * 1000
    while (nowMs() < end) {
      const t0 = nowMs()
      const r = await loop.pass()
      const took = nowMs() - t0
      loop.passMs.push(took)
      loop.secs += took / 1000
      loop.steps += r.steps
      loop.written += r.written ?? 0
    }
  }
  const sweep = (move) => async () => {
    // moving the clock moves every mark: every task shows a new price
    if (move) clock.advance(MONITOR_MS)
    const r = await runMonitorSweep(deps)
    if (r.escalated > 0) throw new Error(`sweep escalated ${r.escalated}`)
    return { steps: r.evaluated, written: r.written }
  }
  /**
   * runWorkerRound's claim with a no-op read per task, leases of 1 ms left
   * to expire; it claims as of two hours on, when every task is due.
   */
  const noopClaim = async () => {
    let steps = 0
    for (;;) {
      const claim = {
        workerId: deps.workerId,
        now: msToIso(clock.now() + 2 * HOUR_MS),
        leaseMs: 1,
        limit: BATCH,
      }
      const [orders, tasks] = await Promise.all([
        store.orders.claim({ ...claim, statuses: ACTIVE_ORDER_STATUSES }),
        store.tasks.claim({ ...claim, statuses: ACTIVE_TASK_STATUSES }),
      ])
      await Promise.all(tasks.map((t) => store.tasks.get(t.id)))
      steps += orders.length + tasks.length
      if (tasks.length < BATCH) break
    }
    clock.advance(1)
    return { steps }
  }
  const loop = (name, pass) => ({
    name,
    pass,
    steps: 0,
    written: 0,
    secs: 0,
    passMs: [],
    counts: new Map(),
  })
  const sweeps = [
    loop('monitor sweep: every task shows a new price', sweep(true)),
    loop('monitor sweep: nothing changed', sweep(false)),
  ]
  // the two sweeps interleaved in 1 s slices, so load from elsewhere hits
  // both alike; the no-op claim loop last (its leases, left to expire,
  // take the tasks out of the sweep)
  const slices = Math.max(1, Math.round(MONITOR_SECONDS))
  for (let i = 0; i < slices; i++) {
    for (const l of sweeps) {
      counting.into = l.counts
      await timed(l, MONITOR_SECONDS / slices)
    }
  }
  const after = await statuses()
  const baseline = loop(
    'claim + tasks.get (no-op claim loop, batch 16)',
    noopClaim,
  )
  counting.into = baseline.counts
  await timed(baseline, MONITOR_SECONDS / 2)
  counting.into = undefined
  const rows = [baseline, ...sweeps].map((l) => {
    const sorted = [...l.passMs].sort((a, b) => a - b)
    return {
      name: l.name,
      steps: l.steps,
      secs: l.secs,
      rate: l.steps / l.secs,
      passes: l.passMs.length,
      p50: pct(sorted, 0.5),
      p99: pct(sorted, 0.99),
      writtenPerPass: l.written / l.passMs.length,
      calls: [...l.counts]
        .sort((a, b) => b[1] - a[1])
        .map(([k, c]) => `${k} ${(c / l.passMs.length).toFixed(2)}`)
        .join(', '),
    }
  })
  await svc.close()
  return { rows, opened, openSeconds, after }
}

// BENCH_SKIP_LATENCY=1 runs the monitoring part alone
const lat =
  env.BENCH_SKIP_LATENCY === '1'
    ? []
    : [...(await latency('SQLite')), ...(PG ? await latency('PostgreSQL') : [])]
const mon = await monitoring()

console.log(
  `\nworker benchmarks: server + worker in one process (latency on SQLite${PG ? ' and PostgreSQL' : ''}, monitoring on SQLite), node ${process.version}, ${availableParallelism()} cores\n`,
)
console.log(
  `Accept-to-venue latency: venue receipt minus 202 arrival at the client (sequential gap ${GAP_MS} ms ±50 %, worker idleMs 250, ${WORKER_SLOTS} slots per kind); spans per burst or run from its first 202 (median of bursts). Pickup: the worker's claim minus the order's creation (as the worker reports it; the creation is stamped before the order's shared commit), and the claim minus the 202's arrival (accept → pickup, 0 when the claim came first)\n`,
)
console.log(
  '| orders | n | created → pickup p50 ms | p99 ms | 202 → pickup p50 ms | p99 ms | at venue: min ms | p50 ms | p99 ms | max ms | 202s span ms | all at venue ms | non-202 | missing |',
)
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|')
for (const r of lat) {
  console.log(
    `| ${r.name} | ${r.n} | ${ms(r.pickupP50)} | ${ms(r.pickupP99)} | ${ms(r.acceptPickupP50)} | ${ms(r.acceptPickupP99)} | ${ms(r.min)} | ${ms(r.p50)} | ${ms(r.p99)} | ${ms(r.max)} | ${ms(r.accepted)} | ${ms(r.atVenue)} | ${r.non202} | ${r.missing} |`,
  )
}
console.log(
  `\nMonitoring: ${TASKS} running tasks (${TASK_OWNERS} owners, all four venues: ${TASK_PAIRS.map((p) => `${p[0]} ${p[1]}/${p[2]} ${p[3]}`).join(', ')}), one worker; opening them took ${mon.openSeconds.toFixed(1)} s. A sweep pass evaluates every running task once; the no-op claim loop claims every task (batch ${BATCH}) with a no-op read each\n`,
)
console.log(
  '| loop | passes | tasks evaluated (claimed) | s | per s | vs no-op | pass p50 ms | pass p99 ms | rows written per pass |',
)
console.log('|---|---|---|---|---|---|---|---|---|')
for (const r of mon.rows) {
  console.log(
    `| ${r.name} | ${r.passes} | ${r.steps} | ${r.secs.toFixed(1)} | ${Math.round(r.rate)} | ${(r.rate / mon.rows[0].rate).toFixed(2)} | ${ms(r.p50)} | ${ms(r.p99)} | ${Math.round(r.writtenPerPass)} |`,
  )
}
console.log('\nstore calls per pass:')
for (const r of mon.rows) console.log(`- ${r.name}: ${r.calls}`)
console.log(
  `\ntask statuses after monitoring: ${JSON.stringify(mon.after)}; worker errors logged: ${workerErrors}`,
)
