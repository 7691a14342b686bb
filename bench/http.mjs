// HTTP benchmark: the service's hot routes beside a bare node:http server
// measured in the same run. Each server runs alone in its own process
// (bench/httpTarget.mjs) and the load generator in another
// (bench/httpLoad.mjs, autocannon), so neither distorts the other's figures;
// the server process's CPU (% of one core) and peak RSS are sampled from
// /proc while it is under load. Run with `npm run bench` (builds first).
// BENCH_CONNECTIONS (50), BENCH_SECONDS (10); BENCH_PG_URL (or
// DN_TEST_PG_URL) adds the POST on PostgreSQL, with one and two processes.
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { DN_NODE_FLAGS } from './dnNodeFlags.mjs'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
const PG = process.env.BENCH_PG_URL ?? process.env.DN_TEST_PG_URL
const here = new URL('.', import.meta.url).pathname
/** Linux clock ticks per second (USER_HZ) */
const TICKS = 100

function startTarget(kind, env = {}) {
  // the service as `dn` starts it (its node flags); bare node:http as is
  const flags = kind === 'bare' ? [] : DN_NODE_FLAGS
  const child = spawn(
    process.execPath,
    [...flags, `${here}httpTarget.mjs`, kind],
    {
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  )
  const lines = createInterface({ input: child.stdout })
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${kind} exited ${code}`)))
    lines.once('line', (line) =>
      resolve({
        ...JSON.parse(line),
        stop: () =>
          new Promise((r) => {
            child.once('exit', r)
            child.stdin.end()
          }),
      }),
    )
  })
}

/** CPU (% of one core) and peak RSS (MB) of a process while it runs. */
function sample(pid) {
  const ticks = () => {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
      .split(') ')[1]
      .split(' ')
    // utime and stime: fields 14 and 15 of stat, 12 and 13 after the name
    return Number(fields[11]) + Number(fields[12])
  }
  const rss = () =>
    Number(
      /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ??
        0,
    ) / 1024
  const t0 = ticks()
  const started = performance.now()
  let peak = rss()
  const timer = setInterval(() => {
    peak = Math.max(peak, rss())
  }, 200)
  return () => {
    clearInterval(timer)
    peak = Math.max(peak, rss())
    const seconds = (performance.now() - started) / 1000
    return {
      cpu: Math.round(((ticks() - t0) / TICKS / seconds) * 100),
      rssMb: Math.round(peak),
    }
  }
}

function load(options) {
  const child = spawn(
    process.execPath,
    [
      `${here}httpLoad.mjs`,
      JSON.stringify({
        seconds: SECONDS,
        connections: CONNECTIONS,
        ...options,
      }),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  let out = ''
  child.stdout.on('data', (d) => {
    out += d
  })
  return new Promise((resolve, reject) =>
    child.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`load ${code}`)),
    ),
  )
}

/** Runs each load against its target at once; sums what they served. */
async function measure(name, pairs) {
  const stops = pairs.map(([t]) => sample(t.pid))
  const results = await Promise.all(pairs.map(([, o]) => load(o)))
  const usage = stops.map((s) => s())
  return {
    name,
    rps: Math.round(results.reduce((s, r) => s + r.rps, 0)),
    p50: Math.max(...results.map((r) => r.p50)),
    p99: Math.max(...results.map((r) => r.p99)),
    max: Math.max(...results.map((r) => r.max)),
    non2xx: results.reduce((s, r) => s + r.non2xx, 0),
    errors: results.reduce((s, r) => s + r.errors, 0),
    cpu: usage.map((u) => u.cpu).join(' + '),
    rssMb: Math.max(...usage.map((u) => u.rssMb)),
  }
}

const ORDER = JSON.stringify({
  venue: 'hl',
  market: 'BTC',
  side: 'long',
  orderType: 'limit',
  sizeBase: 0.001,
  limitPrice: 99000,
})
/** the authenticated task read of a target that made one */
const getTask = (t) => ({
  url: `${t.url}/v1/delta-neutral/tasks/${t.taskId}`,
  headers: { authorization: `Bearer ${t.key}` },
})
const post = (t, connections = CONNECTIONS) => ({
  url: `${t.url}/v1/perp/orders`,
  method: 'POST',
  connections,
  headers: {
    authorization: `Bearer ${t.key}`,
    'content-type': 'application/json',
  },
  body: ORDER,
})

const rows = []
const bare = await startTarget('bare')
rows.push(await measure('bare node:http GET', [[bare, { url: bare.url }]]))
// the floor: the same authenticated read with none of dn's layers
const floor = await startTarget('floor')
rows.push(
  await measure('GET floor: node:http + HMAC + 2 prepared reads (SQLite)', [
    [floor, getTask(floor)],
  ]),
)
await floor.stop()
const sqlite = await startTarget('service')
rows.push(
  await measure('GET /v1/delta-neutral/tasks/{id} (SQLite)', [
    [sqlite, getTask(sqlite)],
  ]),
)
rows.push(
  await measure('bare node:http POST', [
    [
      bare,
      {
        url: bare.url,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: ORDER,
      },
    ],
  ]),
)
rows.push(
  await measure('POST /v1/perp/orders (SQLite)', [[sqlite, post(sqlite)]]),
)
await sqlite.stop()
// the floor: the same durable POST with none of dn's layers
const postFloor = await startTarget('postFloor')
rows.push(
  await measure(
    'POST floor: node:http + HMAC + parse + 2 prepared inserts, one fsync per turn (SQLite)',
    [[postFloor, post(postFloor)]],
  ),
)
await postFloor.stop()
if (PG) {
  const one = await startTarget('service', { DN_BENCH_DB: PG })
  rows.push(
    await measure('POST /v1/perp/orders (PostgreSQL)', [[one, post(one)]]),
  )
  // a second process on the same database, serving the same key
  const two = await startTarget('service', {
    DN_BENCH_DB: PG,
    DN_BENCH_SETUP: '0',
  })
  two.key = one.key
  const half = Math.ceil(CONNECTIONS / 2)
  rows.push(
    await measure('POST /v1/perp/orders (PostgreSQL, 2 processes)', [
      [one, post(one, half)],
      [two, post(two, CONNECTIONS - half)],
    ]),
  )
  await two.stop()
  await one.stop()
}
await bare.stop()

console.log(
  `\n${CONNECTIONS} connections, ${SECONDS} s each, node ${process.version}; servers and load generator each in their own process\n`,
)
console.log(
  '| route | req/s | p50 ms | p99 ms | max ms | non-2xx | errors | server CPU % | server RSS MB | vs bare |',
)
console.log('|---|---|---|---|---|---|---|---|---|---|')
const bareOf = (r) =>
  rows.find((b) => b.name === `bare node:http ${r.name.split(' ')[0]}`)
for (const r of rows) {
  const ref = r.name.startsWith('bare') ? r : bareOf(r)
  const ratio = (r.rps / ref.rps).toFixed(2)
  console.log(
    `| ${r.name} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.max} | ${r.non2xx} | ${r.errors} | ${r.cpu} | ${r.rssMb} | ${ratio} |`,
  )
}
