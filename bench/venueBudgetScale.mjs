// Venue budget at scale (part 2 of bench/venueBudget.mjs, which runs it
// after part 1): 1,000 running tasks of 100 owners on all four venues,
// monitored by one worker for 5 minutes against the protocol fakes that
// enforce the venues' published limits, counted AT THE FAKES. Bindings
// are written straight into the fakes (`seedBinding`: binding 100 owners
// through Hyperliquid's userRole, weight 60, would take minutes of its
// budget) and the tasks are written running over positions opened at the
// engine; everything the worker does from then on goes over the venues'
// real protocols.
// Alone: `npm run build && node bench/venueBudgetScale.mjs`.
import { randomBytes, randomUUID } from 'node:crypto'
import { availableParallelism } from 'node:os'
import { setTimeout as sleep } from 'node:timers/promises'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { PROTOCOL_VENUES } from '../packages/cli/dist/index.js'
import {
  credentialAad,
  FUNDING_READ_LAG_MS,
  nextHourAfter,
  positionsMaxAgeMs,
} from '../packages/core/dist/index.js'
import { benchRun, log } from './benchRun.mjs'
import { composeBenchService } from './composeBenchService.mjs'
import {
  bucketRows,
  createSampler,
  MINUTE_MS,
  snapshot,
} from './fakeUsageSampler.mjs'

const env = process.env
const TASKS = Number(env.BENCH_SCALE_TASKS ?? 1000)
const OWNERS = Number(env.BENCH_SCALE_OWNERS ?? 100)
const MINUTES = Math.max(
  1,
  Math.round(Number(env.BENCH_SCALE_SECONDS ?? 300) / 60),
)
const WARMUP_SECONDS = Number(env.BENCH_SCALE_WARMUP_SECONDS ?? 60)
const MASTER = randomBytes(32)

/** Long leg venue and market / short leg venue and market, round-robin. */
const PAIRS = [
  ['hl', 'BTC', 'aster', 'BTCUSDT'],
  ['hl', 'ETH', 'lighter', 'ETH'],
  ['aster', 'SOLUSDT', 'lighter', 'SOL'],
  ['lighter', 'BTC', 'lighter-mainnet', 'BTC'],
]

const { workerErrors, workerLogger, closers, errorLine, run } = benchRun(
  'venueBudgetScale',
  (WARMUP_SECONDS + MINUTES * 60) * 1000 + 300_000,
)

// ------------------------------------------------------------- counting

/**
 * What the worker asks of each venue, below its shared positions reads:
 * every positions read that reaches the adapter (by account), and the
 * age of every quote the monitor used.
 */
function createCounters() {
  const reads = new Map()
  const quoteAges = []
  let counting = false
  const wrap = (adapters) =>
    Object.fromEntries(
      Object.entries(adapters).map(([venue, a]) => [
        venue,
        {
          ...a,
          async positions(cred, options) {
            const key = `${venue}|${cred.owner.toLowerCase()}`
            const list = reads.get(key) ?? []
            list.push(Date.now())
            reads.set(key, list)
            return a.positions(cred, options)
          },
          async quote(symbol) {
            const q = await a.quote(symbol)
            if (counting && q.at !== undefined) {
              quoteAges.push({ venue, ms: Date.now() - q.at })
            }
            return q
          },
        },
      ]),
    )
  return {
    wrap,
    reads,
    quoteAges,
    setCounting(on) {
      counting = on
    },
  }
}

// ------------------------------------------------------------------ seed

/** `x` rounded up (or to the nearest) on `step`, as a decimal string. */
function onStep(x, step, round = Math.ceil) {
  const s = Number(step)
  const places = Math.max(0, -Math.floor(Math.log10(s)))
  return (round(x / s) * s).toFixed(places)
}

/**
 * One base size for both legs of a pair: above both venues' minimums (and
 * USD 12), on the coarser of their steps (powers of ten, so on both).
 */
function pairSize(sim, [longVenue, longMarket, shortVenue, shortMarket]) {
  let least = 0
  let step = 0
  for (const [venue, market] of [
    [longVenue, longMarket],
    [shortVenue, shortMarket],
  ]) {
    const rules = sim.exchanges[venue].rules(market)
    const mark = Number(sim.exchanges[venue].quote(market).mark)
    least = Math.max(least, Number(rules.minBase), 12 / mark)
    step = Math.max(step, Number(rules.sizeStep))
  }
  return onStep(least, step)
}

async function seed(svc) {
  const { sim, venues, store, secrets } = svc
  const now = Date.now()
  const at = new Date(now).toISOString()
  // as the worker schedules it: the next settlement, plus the read lag
  const checkAt = new Date(
    nextHourAfter(now) + FUNDING_READ_LAG_MS,
  ).toISOString()
  const owners = []
  for (let i = 0; i < OWNERS; i++) {
    const owner = privateKeyToAccount(
      generatePrivateKey(),
    ).address.toLowerCase()
    owners.push(owner)
    for (const venue of PROTOCOL_VENUES) {
      const { accountIndex } = sim.faucet(venue, owner, 1_000_000)
      const lighter = venue.startsWith('lighter')
      const cred = venues.seedBinding(
        venue,
        owner,
        lighter ? accountIndex : undefined,
      )
      await store.bindings.upsert({
        id: randomUUID(),
        owner,
        venue,
        status: 'bound',
        accountIndex: lighter ? String(accountIndex) : null,
        credentialRef: cred.credentialRef,
        credentialCiphertext: secrets.encrypt(
          cred.secret,
          credentialAad(owner, venue),
        ),
        createdAt: at,
        updatedAt: at,
      })
    }
  }
  const sizes = new Map()
  const held = new Map()
  const tasks = []
  for (let i = 0; i < TASKS; i++) {
    const owner = owners[i % OWNERS]
    const pair = PAIRS[Math.floor(i / OWNERS) % PAIRS.length]
    const [longVenue, longMarket, shortVenue, shortMarket] = pair
    const both = sizes.get(pair) ?? pairSize(sim, pair)
    sizes.set(pair, both)
    for (const [v, m, side, s] of [
      [longVenue, longMarket, 'long', both],
      [shortVenue, shortMarket, 'short', both],
    ]) {
      const k = `${owner}|${v}|${m}|${side}`
      held.set(k, (held.get(k) ?? 0) + Number(s))
    }
    tasks.push({
      id: randomUUID(),
      owner,
      apiKeyId: randomUUID(),
      longVenue,
      shortVenue,
      longMarket,
      shortMarket,
      sizeUsd: '20',
      minFundingApy: '0',
      autoClose: false,
      maxSpreadBps: null,
      status: 'running',
      longSize: both,
      shortSize: both,
      longEntry: null,
      shortEntry: null,
      longPrice: null,
      shortPrice: null,
      longLeverage: null,
      shortLeverage: null,
      liqProtectionPct: '2',
      sizeMismatchPct: '5',
      fundingUsd: '0',
      longMarginMode: null,
      shortMarginMode: null,
      closeReason: null,
      error: null,
      closeRequestedAt: null,
      resizeRequest: null,
      engineState: {
        op: null,
        seq: 1,
        fundingSince: at,
        fundingBelowSince: null,
        fundingCheckAt: checkAt,
      },
      leaseOwner: null,
      leaseExpiresAt: null,
      fence: 0,
      nextCheckAt: checkAt,
      createdAt: at,
      updatedAt: at,
    })
  }
  for (const [k, total] of held) {
    const [owner, venue, market, side] = k.split('|')
    const mark = Number(sim.exchanges[venue].quote(market).mark)
    const rules = sim.exchanges[venue].rules(market)
    const placed = sim.exchanges[venue].place(owner, {
      market,
      side,
      size: onStep(total, rules.sizeStep, Math.round),
      // within 5 % of the mark, on the tick and (Hyperliquid) 5 figures
      price: onStep(
        Number(
          (side === 'long' ? mark * 1.05 : mark * 0.95).toPrecision(
            rules.maxSigFigs ?? 15,
          ),
        ),
        rules.tickSize,
        Math.round,
      ),
      timeInForce: 'ioc',
      reduceOnly: false,
      clientOrderId: `0x${randomUUID().replaceAll('-', '')}`,
    })
    if (placed.state !== 'filled') {
      throw new Error(`seed position ${k}: ${JSON.stringify(placed)}`)
    }
  }
  for (const task of tasks) await store.tasks.insert(task)
  return { owners, tasks }
}

// ------------------------------------------------------------------ main

const quantile = (sorted, q) =>
  sorted.length === 0
    ? Number.NaN
    : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]

async function main() {
  const started = Date.now()
  const counters = createCounters()
  const svc = await composeBenchService({
    env,
    master: MASTER,
    workerLogger,
    closers,
    workerAdapters: counters.wrap,
    startWorker: false,
  })
  const sampler = createSampler(svc.fakes)
  closers.push(['sampler', async () => sampler.stop()])
  const { owners, tasks } = await seed(svc)
  log(
    `seeded ${owners.length} owners bound on ${PROTOCOL_VENUES.length} venues and ${tasks.length} running tasks in ${((Date.now() - started) / 1000).toFixed(1)} s; worker starting, warm-up ${WARMUP_SECONDS} s`,
  )
  svc.startWorker()
  await sleep(WARMUP_SECONDS * 1000)

  const errorsBefore = workerErrors.length
  const before = snapshot(sampler)
  sampler.setMeasuring(true)
  counters.setCounting(true)
  const t0 = Date.now()
  const end = t0 + MINUTES * MINUTE_MS
  log(`measuring ${MINUTES} min`)
  // funding booked: the first time each task's fundingUsd moves after a
  // settlement inside the window
  const settlements = []
  for (let s = nextHourAfter(t0); s < end; s = nextHourAfter(s)) {
    settlements.push(s)
  }
  const booked = new Map()
  const minuteReads = []
  const errorSamples = []
  const errorKinds = new Map()
  let nextMinute = t0 + MINUTE_MS
  while (Date.now() < end) {
    await sleep(Math.min(10_000, Math.max(0, end - Date.now())))
    const rows = await Promise.all(tasks.map((x) => svc.store.tasks.get(x.id)))
    const shown = rows.filter((r) => r?.error)
    errorSamples.push(shown.length)
    for (const r of shown) {
      errorKinds.set(r.error, (errorKinds.get(r.error) ?? 0) + 1)
    }
    if (settlements.some((s) => Date.now() > s)) {
      for (const r of rows) {
        if (r && !booked.has(r.id) && r.fundingUsd !== '0') {
          booked.set(r.id, Date.now())
        }
      }
    }
    if (Date.now() >= nextMinute) {
      minuteReads.push(snapshot(sampler))
      nextMinute += MINUTE_MS
      log(`minute ${minuteReads.length} read`)
    }
  }
  while (minuteReads.length < MINUTES) minuteReads.push(snapshot(sampler))
  sampler.setMeasuring(false)
  counters.setCounting(false)
  const after = minuteReads.at(-1)
  const rows = bucketRows({
    before,
    after,
    minuteReads,
    sampler,
    minutes: MINUTES,
  })

  // the longest any account went without a positions read in the window
  const gaps = new Map()
  for (const venue of PROTOCOL_VENUES) gaps.set(venue, [])
  for (const [key, times] of counters.reads) {
    const venue = key.slice(0, key.indexOf('|'))
    const inside = times.filter((x) => x >= t0 && x <= end)
    let last = t0
    let longest = 0
    for (const x of inside) {
      longest = Math.max(longest, x - last)
      last = x
    }
    longest = Math.max(longest, end - last)
    gaps.get(venue).push(longest)
  }
  const accounts = new Map(
    PROTOCOL_VENUES.map((v) => [
      v,
      new Set(
        tasks
          .filter((x) => x.longVenue === v || x.shortVenue === v)
          .map((x) => x.owner),
      ).size,
    ]),
  )
  // accounts whose positions came from a user stream at the window's end
  const streamed = new Map(
    PROTOCOL_VENUES.map((v) => [
      v,
      owners.filter((o) => svc.venues.adapters[v].accountStreamed?.(o)).length,
    ]),
  )
  const final = await Promise.all(tasks.map((x) => svc.store.tasks.get(x.id)))
  const statuses = {}
  for (const r of final) statuses[r.status] = (statuses[r.status] ?? 0) + 1
  return {
    rows,
    gaps,
    accounts,
    streamed,
    quoteAges: counters.quoteAges,
    settlements,
    booked,
    statuses,
    errorSamples,
    errorKinds,
    windowErrors: workerErrors.slice(errorsBefore),
    share: svc.options.budgetShare ?? 0.5,
    lighterTier: svc.lighterTier,
    streams: svc.options.streams ?? true,
    adapters: svc.venues.adapters,
  }
}

// ----------------------------------------------------------------- print

const pct = (x, cap) => `${((100 * x) / cap).toFixed(0)} %`
const num = (x) =>
  Number.isInteger(x) ? x.toLocaleString('en-US') : x.toFixed(1)
const sec = (ms) => (Number.isFinite(ms) ? (ms / 1000).toFixed(1) : '-')

function report(r) {
  console.log(
    `\nvenue budget at scale: ${TASKS} running tasks of ${OWNERS} owners on all four venues (${PAIRS.map((p) => `${p[0]} ${p[1]}/${p[2]} ${p[3]}`).join(', ')}), one worker, ${MINUTES} min measured after ${WARMUP_SECONDS} s warm-up; DN_VENUE_BUDGET_SHARE ${r.share}, Lighter tier ${r.lighterTier}, market streams ${r.streams ? 'on' : 'off'}; counted at the fakes, which enforce the published limits; node ${process.version}, ${availableParallelism()} cores\n`,
  )
  console.log(
    '| venue | limit (per) | buckets | published /min | weight/min (IP: the bucket; account: the busiest) | vs published | peak in any window | peak vs published | refused while measuring | refused since start |',
  )
  console.log('|---|---|---|---|---|---|---|---|---|---|')
  const groups = new Map()
  for (const x of r.rows) {
    const k = `${x.venue}|${x.limit}|${x.per}`
    const g = groups.get(k) ?? []
    g.push(x)
    groups.set(k, g)
  }
  const over = []
  for (const [k, g] of groups) {
    const [venue, limit, per] = k.split('|')
    const capacity = g[0].capacity
    const weight = Math.max(...g.map((x) => x.weightPerMin))
    const peak = Math.max(...g.map((x) => x.peak))
    const refused = g.reduce((s, x) => s + x.refused, 0)
    const refusedTotal = g.reduce((s, x) => s + x.refusedTotal, 0)
    if (weight > r.share * capacity || peak > r.share * capacity) over.push(k)
    console.log(
      `| ${venue} | ${limit} (${per}) | ${g.length} | ${num(capacity)} | ${num(weight)} | ${pct(weight, capacity)} | ${num(peak)} | ${pct(peak, capacity)} | ${refused} | ${refusedTotal} |`,
    )
  }
  console.log(
    `\nbuckets over the share (${r.share}) while measuring: ${over.length === 0 ? 'none' : over.join('; ')}`,
  )
  console.log(
    '\n| venue | accounts | streamed at the end | REST read cadence for the rest (positionsMaxAgeMs) | longest gap between positions reads (streamed: answers from the stream), p50 | p99 | max | quotes the monitor used | mark age p50 | p99 | max |',
  )
  console.log('|---|---|---|---|---|---|---|---|---|---|---|')
  for (const venue of PROTOCOL_VENUES) {
    const g = [...r.gaps.get(venue)].sort((a, b) => a - b)
    const ages = r.quoteAges
      .filter((q) => q.venue === venue)
      .map((q) => q.ms)
      .sort((a, b) => a - b)
    const n = r.accounts.get(venue)
    const rate = r.adapters[venue].accountReadsPerMinute?.()
    console.log(
      `| ${venue} | ${n} | ${r.streamed.get(venue)} | ${sec(positionsMaxAgeMs(n - r.streamed.get(venue), rate))} s | ${sec(quantile(g, 0.5))} s | ${sec(quantile(g, 0.99))} s | ${sec(g.at(-1))} s | ${ages.length} | ${sec(quantile(ages, 0.5))} s | ${sec(quantile(ages, 0.99))} s | ${sec(ages.at(-1))} s |`,
    )
  }
  const all = r.quoteAges.map((q) => q.ms).sort((a, b) => a - b)
  console.log(
    `\nmark age used by the monitor, all venues: p50 ${sec(quantile(all, 0.5))} s, p99 ${sec(quantile(all, 0.99))} s, max ${sec(all.at(-1))} s over ${all.length} quotes`,
  )
  if (r.settlements.length === 0) {
    console.log(
      'funding: no settlement fell inside the measuring window (the fakes settle on the hour); booking once one has passed is tested in test/workerMonitoring.test.ts',
    )
  } else {
    const delays = [...r.booked.values()]
      .map((at) => at - r.settlements[0])
      .sort((a, b) => a - b)
    console.log(
      `funding: the settlement at ${new Date(r.settlements[0]).toISOString()} was booked on ${r.booked.size} of ${TASKS} tasks by the end of the window; delay p50 ${sec(quantile(delays, 0.5))} s, max ${sec(delays.at(-1))} s (polled every 10 s)`,
    )
  }
  console.log(
    `tasks at the end: ${JSON.stringify(r.statuses)}; tasks showing an error, sampled every 10 s: max ${Math.max(0, ...r.errorSamples)}`,
  )
  for (const [e, n] of [...r.errorKinds]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)) {
    console.log(`- ${n} samples: ${e.slice(0, 200)}`)
  }
  console.log(`worker errors logged while measuring: ${r.windowErrors.length}`)
  for (const e of r.windowErrors.slice(0, 5)) {
    console.log(`- ${errorLine(e)}`)
  }
}

const code = await run(main, report)
process.exitCode = code
