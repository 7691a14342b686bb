// Drain benchmark: a backlog of market orders through `dn serve` and
// separate `dn worker run` processes on one PostgreSQL, each process alone,
// the venues' protocol fakes in a `dn up` of their own (as a deployment
// speaks to real venues: signed requests over loopback HTTP, published
// limits enforced). For 1 and then 2 workers, each on a fresh deployment
// (its own fakes, schema and API, so no run spends another's venue
// budgets): the API accepts BENCH_ORDERS orders with no worker running,
// then the workers start and drain them. Reported: orders/s of the
// acceptance and of the drain, CPU (ms per order) of the API, each worker
// (from when it says it runs; its start-up apart) and PostgreSQL (every process of
// it, from /proc), and PostgreSQL transactions per order
// (pg_stat_database, the benchmark's own queries taken out).
//
// Needs PostgreSQL: BENCH_PG_URL (or DN_TEST_PG_URL, as scripts/pg-up.sh
// prints it); without it, says so and measures nothing. Alone:
// `npm run build && node bench/drain.mjs` (about 90 s). BENCH_ORDERS
// (400), BENCH_OWNERS (4), BENCH_WORKERS (1,2); BENCH_VERBOSE prints the
// workers' warnings; BENCH_WORKER_NODE_ARGS (e.g. `--cpu-prof`) goes to
// each worker's node.
import { spawn } from 'node:child_process'
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import pg from 'pg'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { createDnClient } from '../packages/client/dist/index.js'
import { benchRun, log } from './benchRun.mjs'
import { DN_NODE_FLAGS } from './dnNodeFlags.mjs'

const env = process.env
const PG = env.BENCH_PG_URL ?? env.DN_TEST_PG_URL
const ORDERS = Number(env.BENCH_ORDERS ?? 400)
const OWNERS = Number(env.BENCH_OWNERS ?? 4)
const WORKER_COUNTS = (env.BENCH_WORKERS ?? '1,2').split(',').map(Number)
const CLI = new URL('../packages/cli/dist/main.js', import.meta.url).pathname
const MASTER_HEX = randomBytes(32).toString('hex')
const CLK_TCK = 100
// an idle PostgreSQL backend reports its transactions to pg_stat_database
// at most 10 s late (PGSTAT_IDLE_INTERVAL)
const STATS_FLUSH_MS = 11_000
// market orders spread over every venue, so no one account-market lock or
// venue budget sets the pace alone
const MARKETS = [
  ['hl', 'SOL', 0.1],
  ['aster', 'SOLUSDT', 0.1],
  ['lighter', 'SOL', 0.1],
  ['lighter-mainnet', 'ETH', 0.005],
]
const ACTIVE = ['pending', 'submitting', 'open', 'partially_filled', 'unknown']

if (!PG) {
  console.log(
    '\ndrain: not measured, it needs PostgreSQL: export DN_TEST_PG_URL=$(scripts/pg-up.sh dn_test) (or BENCH_PG_URL)',
  )
  process.exit(0)
}

const bench = benchRun('drain', 10 * 60_000)
const { closers } = bench

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address()
      s.close(() => resolve(port))
    })
  })
}

/**
 * user+system CPU of one process, ms; with `children`, also that of its
 * children that have exited (and been waited for)
 */
function cpuMs(pid, children = false) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const f = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number)
    const own = f[11] + f[12]
    return ((children ? own + f[13] + f[14] : own) * 1000) / CLK_TCK
  } catch {
    return 0
  }
}

/**
 * CPU of PostgreSQL, ms: every live process (backends, writers,
 * checkpointer) and the backends that have exited, which the postmaster
 * has waited for
 */
function postgresCpuMs() {
  let sum = 0
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue
    try {
      const comm = readFileSync(`/proc/${d}/comm`, 'utf8').trim()
      if (comm === 'postgres' || comm.startsWith('postgres:')) {
        sum += cpuMs(d, true)
      }
    } catch {}
  }
  return sum
}

/** A `dn` process; resolves once `ready` matches its stderr. */
function startDn(name, args, extraEnv, ready, nodeArgs = []) {
  const child = spawn(
    process.execPath,
    [...DN_NODE_FLAGS, ...nodeArgs, CLI, ...args],
    {
      env: {
        ...env,
        DN_MASTER_KEY: MASTER_HEX,
        DN_LOG_LEVEL: 'warn',
        // the API's own per-key limit is not what is measured
        DN_RATE_LIMIT: '10000000',
        // a backlog of orders in seconds: a standard Lighter account (and
        // the builder tier) may send 60 txs a minute, a premium one 4,000
        DN_LIGHTER_TIER: 'premium',
        // names its PostgreSQL sessions (pg_stat_activity, statement logs)
        PGAPPNAME: name,
        ...extraEnv,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let out = ''
  const exited = new Promise((r) => child.once('exit', r))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM')
      await Promise.race([exited, sleep(15_000)])
      if (child.exitCode === null) child.kill('SIGKILL')
    }
  }
  closers.push([name, stop])
  return new Promise((resolve, reject) => {
    const onData = (d) => {
      out += d
      if (ready.test(out)) resolve({ pid: child.pid, stop, output: () => out })
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.once('exit', (code) =>
      reject(new Error(`${name} exited ${code}: ${out.slice(-2000)}`)),
    )
  })
}

async function postgresCounters(client, run) {
  // the statistics of other backends reach pg_stat_database once they
  // report: a snapshot is cleared so the read is current
  await client.query('select pg_stat_clear_snapshot()')
  const r = await client.query(
    'select xact_commit + xact_rollback as n from pg_stat_database where datname = current_database()',
  )
  run.ownQueries += 2
  return Number(r.rows[0].n)
}

/**
 * A fresh deployment: its own simulated venues (`dn up`), PostgreSQL
 * schema and `dn serve`, so no run spends from the venue budgets of
 * another; OWNERS wallets bound on every venue, each with an API key.
 */
async function deploy(pgc) {
  const schema = `bench_drain_${randomBytes(4).toString('hex')}`
  const dataDir = mkdtempSync(join(tmpdir(), 'dn-bench-drain-'))
  closers.push(['temp dir', async () => rmSync(dataDir, { recursive: true })])
  const simPort = await freePort()
  const sim = await startDn(
    'sim (dn up)',
    [
      'up',
      '--data',
      dataDir,
      '--port',
      String(await freePort()),
      '--sim-port',
      String(simPort),
    ],
    { DN_DB_SCHEMA: '' },
    /Ctrl-C stops/,
  )
  const simUrl = `http://127.0.0.1:${simPort}`
  const apiPort = await freePort()
  const api = await startDn(
    'dn serve',
    ['serve', '--db', PG, '--port', String(apiPort), '--sim-url', simUrl],
    { DN_DB_SCHEMA: schema },
    /dn: api /,
  )
  const url = `http://127.0.0.1:${apiPort}`
  closers.push([
    'schema',
    async () => {
      await pgc.query(`drop schema if exists ${schema} cascade`)
    },
  ])
  log(`sim ${simUrl}, api ${url}, schema ${schema}`)

  // owners bound through the API as a user binds: the worker runs the
  // binding batches, then stops before the backlog is built
  const binder = await startWorker('binding worker')
  const keys = []
  await Promise.all(
    Array.from({ length: OWNERS }, async () => {
      const wallet = privateKeyToAccount(generatePrivateKey())
      const owner = wallet.address.toLowerCase()
      const index = {}
      for (const [venue] of MARKETS) {
        const res = await fetch(`${simUrl}/faucet`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ venue, owner, collateralUsd: 10_000_000 }),
        })
        index[venue] = (await res.json()).accountIndex
      }
      const anon = createDnClient({ baseUrl: url })
      const batch = await anon.bindVenues(
        wallet,
        MARKETS.map(([venue]) =>
          venue.startsWith('lighter')
            ? { venue, accountIndex: index[venue] }
            : { venue },
        ),
        { intervalMs: 200, timeoutMs: 120_000 },
      )
      if (batch.status !== 'bound') {
        throw new Error(`binding: ${JSON.stringify(batch)}`)
      }
      const key = await anon.createApiKey(wallet, {
        venues: MARKETS.map(([venue]) => venue),
        maxSizeUsd: 1_000_000,
      })
      keys.push(key.apiKey)
    }),
  )
  await binder.stop()
  log(`${OWNERS} owners bound on ${MARKETS.length} venues`)

  function startWorker(name) {
    return startDn(
      name,
      ['worker', 'run', '--db', PG, '--sim-url', simUrl],
      {
        DN_DB_SCHEMA: schema,
        DN_WORKER_ID: `${name.replace(/\W+/g, '-')}-${randomUUID().slice(0, 6)}`,
      },
      /dn: worker \S+ running/,
      // e.g. `--cpu-prof`, to see where a worker's CPU goes
      (env.BENCH_WORKER_NODE_ARGS ?? '').split(' ').filter(Boolean),
    )
  }
  return { schema, sim, api, url, keys, startWorker }
}

async function main() {
  const pgc = new pg.Client({ connectionString: PG })
  await pgc.connect()
  closers.push(['database client', () => pgc.end()])
  const rows = []
  for (const workers of WORKER_COUNTS) {
    const { schema, sim, api, url, keys, startWorker } = await deploy(pgc)
    const run = { ownQueries: 0 }
    // accept: the backlog, 20 requests at a time, no worker running
    const xAccept0 = await postgresCounters(pgc, run)
    const apiAccept0 = cpuMs(api.pid)
    const pgAccept0 = postgresCpuMs()
    const ids = []
    let next = 0
    const t0 = performance.now()
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        while (next < ORDERS) {
          const i = next++
          const [venue, market, sizeBase] = MARKETS[i % MARKETS.length]
          const res = await fetch(`${url}/v1/perp/orders`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${keys[Math.floor(i / MARKETS.length) % keys.length]}`,
              'content-type': 'application/json',
              'idempotency-key': randomUUID(),
            },
            body: JSON.stringify({
              venue,
              market,
              side:
                Math.floor(i / (MARKETS.length * OWNERS)) % 2
                  ? 'short'
                  : 'long',
              orderType: 'market',
              sizeBase,
            }),
          })
          const body = await res.json()
          if (res.status !== 202) {
            throw new Error(`POST ${res.status}: ${JSON.stringify(body)}`)
          }
          ids.push(body.orderId)
        }
      }),
    )
    const acceptMs = performance.now() - t0
    await sleep(STATS_FLUSH_MS) // every backend's count reaches pg_stat_database
    const accept = {
      xacts: (await postgresCounters(pgc, run)) - xAccept0 - run.ownQueries,
      apiCpu: cpuMs(api.pid) - apiAccept0,
      pgCpu: postgresCpuMs() - pgAccept0,
    }
    run.ownQueries = 0

    // drain: the workers start on the backlog
    const x0 = await postgresCounters(pgc, run)
    const api0 = cpuMs(api.pid)
    const pg0 = postgresCpuMs()
    const sim0 = cpuMs(sim.pid)
    const d0 = performance.now()
    const procs = await Promise.all(
      Array.from({ length: workers }, (_, i) => startWorker(`worker ${i + 1}`)),
    )
    // from the moment each says it runs: its start-up (loading, migrations
    // check, venue metadata) is shown apart
    const w0 = procs.map((p) => cpuMs(p.pid))
    let left = ORDERS
    while (left > 0) {
      await sleep(50)
      const r = await pgc.query(
        `select count(*)::int as n from ${schema}.perp_orders where id = any($1) and status = any($2)`,
        [ids, ACTIVE],
      )
      run.ownQueries++
      left = r.rows[0].n
      if (performance.now() - d0 > 300_000) {
        throw new Error(`${left} orders still active after 300 s`)
      }
    }
    const drainMs = performance.now() - d0
    const workerCpu = procs.map((p, i) => cpuMs(p.pid) - w0[i])
    const apiCpu = cpuMs(api.pid) - api0
    const pgCpu = postgresCpuMs() - pg0
    const simCpu = cpuMs(sim.pid) - sim0
    await Promise.all(procs.map((p) => p.stop()))
    if (env.BENCH_VERBOSE) {
      for (const p of procs) log(`worker output:\n${p.output().slice(-6000)}`)
      log(`sim output:\n${sim.output().slice(-3000)}`)
    }
    await sleep(STATS_FLUSH_MS)
    const xacts = (await postgresCounters(pgc, run)) - x0 - run.ownQueries
    const st = await pgc.query(
      `select status, count(*)::int as n from ${schema}.perp_orders where id = any($1) group by status`,
      [ids],
    )
    rows.push({
      workers,
      acceptPerS: (ORDERS * 1000) / acceptMs,
      accept,
      drainPerS: (ORDERS * 1000) / drainMs,
      drainMs,
      workerCpu,
      workerStartCpu: w0,
      apiCpu,
      pgCpu,
      simCpu,
      xacts,
      statuses: Object.fromEntries(st.rows.map((r) => [r.status, r.n])),
    })
    // this deployment is done: its processes take no CPU from the next
    await api.stop()
    await sim.stop()
    log(
      `${workers} worker(s): drained ${ORDERS} in ${(drainMs / 1000).toFixed(1)} s`,
    )
  }
  return rows
}

function report(rows) {
  const f = (x, d = 2) => x.toFixed(d)
  console.log(
    `\ndrain: ${ORDERS} market orders from ${OWNERS} owners over ${MARKETS.map((m) => m[0]).join(', ')} through \`dn serve\` + \`dn worker run\` processes on PostgreSQL, venues' protocol fakes in a separate \`dn up\`; node ${process.version}, ${availableParallelism()} cores\n`,
  )
  console.log(
    '| workers | accept orders/s | accept: API CPU ms/order | accept: PG CPU ms/order | accept: PG tx/order | drain orders/s | worker start-up CPU ms | drain: worker CPU ms/order | drain: API CPU ms/order | drain: PG CPU ms/order | drain: PG tx/order | API + worker + PG CPU ms/order | PG tx/order in all | fakes CPU ms/order | final statuses |',
  )
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|')
  for (const r of rows) {
    const n = ORDERS
    const worker = r.workerCpu.reduce((a, b) => a + b, 0)
    const total = r.accept.apiCpu + r.accept.pgCpu + worker + r.apiCpu + r.pgCpu
    console.log(
      `| ${r.workers} | ${f(r.acceptPerS, 0)} | ${f(r.accept.apiCpu / n)} | ${f(r.accept.pgCpu / n)} | ${f(r.accept.xacts / n)} | ${f(r.drainPerS, 0)} | ${r.workerStartCpu.map((c) => f(c, 0)).join(' + ')} | ${r.workerCpu.map((c) => f(c / n)).join(' + ')} | ${f(r.apiCpu / n)} | ${f(r.pgCpu / n)} | ${f(r.xacts / n)} | ${f(total / n)} | ${f((r.accept.xacts + r.xacts) / n)} | ${f(r.simCpu / n)} | ${Object.entries(
        r.statuses,
      )
        .map(([s, c]) => `${s} ${c}`)
        .join(', ')} |`,
    )
  }
}

process.exitCode = await bench.run(main, report)
