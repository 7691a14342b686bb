// Venue budget benchmark. Part 1: one running paired task
// per venue pair, the whole service composed in one process as `dn up`
// runs it (SQLite store, real protocol adapters and binders against the
// protocol fakes over one simulator, the HTTP API, one worker), and the
// requests and weight each venue receives, counted AT THE FAKES
// (`rateLimitUsage()`), not inside the adapters. The fakes enforce the
// venues' published limits, so an over-budget request is refused (429,
// Aster 418 bans) as the venue would refuse it. Part 2
// (bench/venueBudgetScale.mjs, run after): 1,000 tasks of 100 owners.
// Run with `npm run bench` (builds first), or alone:
// `npm run build && node bench/venueBudget.mjs`.
import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { availableParallelism } from 'node:os'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { PROTOCOL_VENUES } from '../packages/cli/dist/index.js'
import { createDnClient } from '../packages/client/dist/index.js'
import { benchRun, log } from './benchRun.mjs'
import { composeBenchService } from './composeBenchService.mjs'
import {
  bucketRows,
  createSampler,
  MINUTE_MS,
  snapshot,
} from './fakeUsageSampler.mjs'

const env = process.env
const SECONDS = Number(env.BENCH_BUDGET_SECONDS ?? 60)
// every published limit is per (rolling or calendar) minute: the
// measuring window is whole minutes, so each minute's weight is read
// exactly from the fakes' own windows
const MINUTES = Math.max(1, Math.round(SECONDS / 60))
// after the tasks run, so every window read while measuring holds only
// steady monitoring (no binding or opening)
const WARMUP_SECONDS = Number(env.BENCH_BUDGET_WARMUP_SECONDS ?? 60)
const SIZE_USD = Number(env.BENCH_BUDGET_SIZE_USD ?? 200)
const SETUP_TIMEOUT_MS = 240_000

/** One task per venue pair: long leg venue / short leg venue. */
const PAIRS = [
  ['hl', 'BTC', 'aster', 'BTCUSDT'],
  ['hl', 'ETH', 'lighter', 'ETH'],
  ['aster', 'SOLUSDT', 'lighter', 'SOL'],
  ['lighter', 'BTC', 'lighter-mainnet', 'BTC'],
]

/** The issue's measurement before the change: ONE task, one venue each. */
const BASELINE = {
  hl: { what: 'weight/min (`weight`, per IP)', value: 2352, capacity: 1200 },
  lighter: { what: 'requests/min', value: 280, capacity: 60 },
  aster: {
    what: 'weight/min (`REQUEST_WEIGHT`, per IP)',
    value: 2128,
    capacity: 2400,
    approx: true,
  },
}

const MASTER = randomBytes(32)

// -------------------------------------------------------------- teardown

const { workerErrors, workerLogger, closers, errorLine, run } = benchRun(
  'venueBudget',
  SETUP_TIMEOUT_MS + (WARMUP_SECONDS + MINUTES * 60) * 1000 + 60_000,
)

const withTimeout = (what, ms, p) =>
  Promise.race([
    p,
    sleep(ms, undefined, { ref: false }).then(() => {
      throw new Error(`${what}: no result within ${ms / 1000} s`)
    }),
  ])

// --------------------------------------------------------------- compose

// ------------------------------------------------------------- measuring

// ------------------------------------------------------------------ main

async function main() {
  const started = Date.now()
  const svc = await composeBenchService({
    env,
    master: MASTER,
    workerLogger,
    closers,
  })
  const sampler = createSampler(svc.fakes)
  closers.push(['sampler', async () => sampler.stop()])
  log(`composed: api ${svc.url}; fakes enforce published limits`)

  const wallet = privateKeyToAccount(generatePrivateKey())
  const owner = wallet.address.toLowerCase()
  const index = {}
  for (const venue of PROTOCOL_VENUES) {
    index[venue] = svc.sim.faucet(venue, owner).accountIndex
  }
  const anon = createDnClient({ baseUrl: svc.url })
  const targets = [
    { venue: 'hl' },
    { venue: 'aster' },
    { venue: 'lighter', accountIndex: index.lighter },
    { venue: 'lighter-mainnet', accountIndex: index['lighter-mainnet'] },
  ]
  const bindStart = Date.now()
  const batch = await withTimeout(
    'binding',
    150_000,
    anon.bindVenues(wallet, targets, { intervalMs: 250, timeoutMs: 140_000 }),
  )
  const bound = batch.results.map((r) => `${r.venue}:${r.status}`)
  log(`binding ${batch.status} in ${Date.now() - bindStart} ms: ${bound}`)
  if (batch.status !== 'bound') {
    throw new Error(`binding did not complete: ${JSON.stringify(batch)}`)
  }
  const key = await anon.createApiKey(wallet, {
    venues: targets.map((x) => x.venue),
    maxSizeUsd: 20_000,
  })
  const dn = createDnClient({ baseUrl: svc.url, apiKey: key.apiKey })

  const tasks = []
  for (const [longVenue, longMarket, shortVenue, shortMarket] of PAIRS) {
    const { taskId } = await dn.createTask({
      longVenue,
      shortVenue,
      longMarket,
      shortMarket,
      sizeUsd: SIZE_USD,
      // keep every task open whatever the funding spread does
      autoClose: false,
    })
    tasks.push({ taskId, pair: `${longVenue}/${shortVenue}` })
  }
  const openStart = Date.now()
  const opened = await withTimeout(
    'opening tasks',
    150_000,
    Promise.all(
      tasks.map((x) =>
        dn.waitForTask(x.taskId, { intervalMs: 500, timeoutMs: 140_000 }),
      ),
    ),
  )
  const notRunning = opened.filter((x) => x.status !== 'running')
  if (notRunning.length > 0) {
    throw new Error(
      `tasks not running: ${JSON.stringify(notRunning.map((x) => ({ id: x.taskId, status: x.status, error: x.error })))}`,
    )
  }
  // a few direct market orders, so /metrics has accept → venue times
  const direct = []
  for (let i = 0; i < 5; i++) {
    const side = i % 2 === 0 ? 'long' : 'short'
    const { orderId } = await dn.createOrder({
      venue: 'hl',
      market: 'BTC',
      side,
      orderType: 'market',
      sizeBase: 0.001,
    })
    direct.push(orderId)
  }
  await withTimeout(
    'direct orders',
    60_000,
    Promise.all(
      direct.map((id) =>
        dn.waitForOrder(id, { intervalMs: 250, timeoutMs: 55_000 }),
      ),
    ),
  )
  const setupSeconds = (Date.now() - started) / 1000
  log(
    `${tasks.length} tasks running after ${((Date.now() - openStart) / 1000).toFixed(1)} s (setup ${setupSeconds.toFixed(1)} s); warm-up ${WARMUP_SECONDS} s`,
  )
  await sleep(WARMUP_SECONDS * 1000)

  // ------------------------------------------------ the measuring window
  const errorsBefore = workerErrors.length
  const before = snapshot(sampler)
  sampler.setMeasuring(true)
  const t0 = Date.now()
  log(`measuring ${MINUTES} min`)
  // each task's `error` once a second: a round refused for budget shows
  // there until a later round succeeds
  const taskPolls = new Map(
    tasks.map((x) => [
      x.taskId,
      { polls: 0, withError: 0, errors: new Map(), prices: new Set() },
    ]),
  )
  let polling = true
  const poller = (async () => {
    while (polling) {
      const read = await Promise.all(
        tasks.map((x) => dn.getTask(x.taskId).catch(() => null)),
      )
      for (const task of read) {
        if (!task) continue
        const p = taskPolls.get(task.taskId)
        p.polls++
        p.prices.add(`${task.longPrice} ${task.shortPrice}`)
        if (task.error) {
          p.withError++
          p.errors.set(task.error, (p.errors.get(task.error) ?? 0) + 1)
        }
      }
      await sleep(1000)
    }
  })()
  /** sliding-window weight of each bucket at the end of each minute */
  const minuteReads = []
  for (let m = 1; m <= MINUTES; m++) {
    await sleep(Math.max(0, t0 + m * MINUTE_MS - Date.now()))
    minuteReads.push(snapshot(sampler))
    log(`minute ${m} read`)
  }
  sampler.setMeasuring(false)
  const after = minuteReads.at(-1)
  const measuredMs = Date.now() - t0
  polling = false
  await withTimeout('task polling', 15_000, poller)

  const final = await Promise.all(tasks.map((x) => dn.getTask(x.taskId)))
  // what Prometheus would scrape now: accept → venue and budget lines
  const scraped = await (await fetch(`${svc.url}/metrics`)).text()
  const metricLines = scraped.split('\n').filter(
    (l) =>
      /^dn_(accept_to_venue_seconds_(count|sum|bucket\{[^}]*le="(0\.25|1|\+Inf)")|venue_budget_(used|ceiling|held_off))/.test(
        l,
      ) &&
      // Lighter's per-endpoint limits: in /metrics, not in this summary
      !/limit="(ip|l1):/.test(l),
  )
  const windowErrors = workerErrors.slice(errorsBefore)
  const rows = bucketRows({
    before,
    after,
    minuteReads,
    sampler,
    minutes: MINUTES,
  })
  return {
    rows,
    final,
    taskPolls,
    streams: svc.options.streams ?? true,
    tasks,
    windowErrors,
    measuredMs,
    setupSeconds,
    lighterTier: svc.lighterTier,
    share: svc.options.budgetShare ?? 0.5,
    owner,
    metricLines,
  }
}

// ----------------------------------------------------------------- print

const pct = (x, cap) => `${((100 * x) / cap).toFixed(0)} %`
const num = (x) =>
  Number.isInteger(x) ? x.toLocaleString('en-US') : x.toFixed(1)
const shortSubject = (s) => (s.startsWith('0x') ? `${s.slice(0, 8)}…` : s)

function report(r) {
  const pairsOf = (v) =>
    PAIRS.filter((p) => p[0] === v || p[2] === v)
      .map((p) => `${p[0]}/${p[2]}`)
      .join(', ')
  console.log(
    `\nvenue budget: ${PAIRS.length} running tasks (one per venue pair, USD ${SIZE_USD} a leg), ${MINUTES} min measured (${(r.measuredMs / 1000).toFixed(1)} s) after ${WARMUP_SECONDS} s warm-up; DN_VENUE_BUDGET_SHARE ${r.share}, Lighter tier ${r.lighterTier}, market streams ${r.streams ? 'on' : 'off'} (DN_VENUE_STREAMS; streams spend no REST weight); counted at the fakes, which enforce the published limits; node ${process.version}, ${availableParallelism()} cores; setup (bind 4 venues, key, open 4 tasks) ${r.setupSeconds.toFixed(1)} s\n`,
  )
  console.log(
    '| venue (tasks with a leg there) | limit (per) | subject | published /min | requests/min | weight/min | weight vs published | peak in any window while measuring | peak vs published | peak since start (binding, opening) | refused while measuring | refused since start |',
  )
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|')
  for (const x of r.rows) {
    console.log(
      `| ${x.venue} (${pairsOf(x.venue)}) | ${x.limit} (${x.per}) | ${shortSubject(x.subject)} | ${num(x.capacity)} | ${num(x.requestsPerMin)} | ${num(x.weightPerMin)} | ${pct(x.weightPerMin, x.capacity)} | ${num(x.peak)} | ${pct(x.peak, x.capacity)} | ${num(x.lifetimePeak)} (${pct(x.lifetimePeak, x.capacity)}) | ${x.refused} | ${x.refusedTotal} |`,
    )
  }

  // before/after: the issue's figures for one task beside this run
  const main = {
    hl: (x) => x.limit === 'weight',
    aster: (x) => x.limit === 'REQUEST_WEIGHT',
    lighter: (x) => x.limit === 'ip' || x.limit === 'l1',
    'lighter-mainnet': (x) => x.limit === 'ip' || x.limit === 'l1',
  }
  console.log(
    `\nBefore (the issue's measurement, ONE task) and after (this run, ${PAIRS.length} tasks: hl and aster carry 2 legs, lighter 3, lighter-mainnet 1):\n`,
  )
  console.log(
    '| venue | measure | published /min | before: issue (1 task) | before vs published | after: this run | after vs published | peak while measuring | refused while measuring |',
  )
  console.log('|---|---|---|---|---|---|---|---|---|')
  for (const venue of PROTOCOL_VENUES) {
    const rows = r.rows.filter((x) => x.venue === venue && main[venue](x))
    const base = BASELINE[venue]
    for (const x of rows) {
      const lighter = venue.startsWith('lighter')
      const value = lighter ? x.requestsPerMin : x.weightPerMin
      const measure = lighter
        ? `requests/min (\`${x.limit}\`, per ${x.per === 'ip' ? 'IP' : 'L1 address'})`
        : `weight/min (\`${x.limit}\`, per IP)`
      const b =
        base && (venue !== 'lighter' || x === rows[0])
          ? [
              `${base.approx ? '≈' : ''}${num(base.value)}`,
              pct(base.value, base.capacity),
            ]
          : ['-', '-']
      console.log(
        `| ${venue} | ${measure} | ${num(x.capacity)} | ${b[0]} | ${b[1]} | ${num(value)} | ${pct(value, x.capacity)} | ${num(x.peak)} (${pct(x.peak, x.capacity)}) | ${x.refused} |`,
      )
    }
  }
  console.log(
    '\n"before" is quoted from the issue (one task, counted at the fakes before the request budget); it is not re-measured here.',
  )

  const over = r.rows.filter(
    (x) =>
      x.weightPerMin > r.share * x.capacity || x.peak > r.share * x.capacity,
  )
  console.log(
    `\nbuckets over the share (${r.share}) of their published limit while measuring: ${over.length === 0 ? 'none' : over.map((x) => `${x.venue} ${x.limit} ${x.subject} (${num(x.weightPerMin)}/min, peak ${num(x.peak)} of ${x.capacity})`).join('; ')}`,
  )
  const refusedAny = r.rows.filter((x) => x.refusedTotal > 0)
  console.log(
    `refused (429) at the fakes since start: ${refusedAny.length === 0 ? 'none' : refusedAny.map((x) => `${x.venue} ${x.limit} ${x.subject}: ${x.refusedTotal} (${x.refused} while measuring)`).join('; ')}` +
      ' (Aster 418 bans follow only a weight 429 and are not counted by the fake)',
  )
  console.log(
    '\n| task (long/short) | status at the end | polls while measuring (1/s) | distinct long/short prices seen | polls showing an error | errors seen (polls) |',
  )
  console.log('|---|---|---|---|---|---|')
  for (const x of r.final) {
    const p = r.taskPolls.get(x.taskId)
    const seen = [...p.errors].map(([e, n]) => `${e} (${n})`).join('; ')
    console.log(
      `| ${x.longVenue} ${x.longMarket} / ${x.shortVenue} ${x.shortMarket} | ${x.status} | ${p.polls} | ${p.prices.size} | ${p.withError} | ${seen || '-'} |`,
    )
  }
  console.log(`worker errors logged while measuring: ${r.windowErrors.length}`)
  console.log('\n/metrics at the end (accept → venue, venue budgets):')
  console.log(['```', ...r.metricLines, '```'].join('\n'))
  for (const e of r.windowErrors.slice(0, 5)) {
    console.log(`- ${errorLine(e)}`)
  }
}

let code = await run(main, report)
// part 2, in a process of its own (fresh fakes, windows and store):
// 1,000 tasks of 100 owners; BENCH_BUDGET_SCALE=0 skips it
if (code === 0 && env.BENCH_BUDGET_SCALE !== '0') {
  const scale = spawnSync(
    process.execPath,
    [fileURLToPath(new URL('./venueBudgetScale.mjs', import.meta.url))],
    { stdio: 'inherit' },
  )
  code = scale.status ?? 1
}
process.exitCode = code
