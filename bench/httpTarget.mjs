// One server for bench/http.mjs, alone in its process: `bare` (node:http
// answering a fixed JSON body) or `service` (the dn API on SQLite, or on
// PostgreSQL when DN_BENCH_DB is a postgres:// URL). Prints one JSON line
// with what the load needs (url, bearer key, a task id), then serves until
// stdin closes.
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const kind = process.argv[2]
const port = Number(process.argv[3] ?? 0)
let close = async () => {}

async function bare() {
  const body = JSON.stringify({
    task: { taskId: randomUUID(), status: 'pending' },
  })
  const server = createServer((req, res) => {
    req.resume()
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    })
    res.end(body)
  })
  await new Promise((r) => server.listen(port, '127.0.0.1', r))
  close = () => new Promise((r) => server.close(r))
  return { url: `http://127.0.0.1:${server.address().port}` }
}

async function openStore() {
  const db = process.env.DN_BENCH_DB
  if (db?.startsWith('postgres')) {
    const { createPostgresStore } = await import(
      '../packages/core/dist/store/postgres.js'
    )
    return { store: await createPostgresStore({ connectionString: db }) }
  }
  const { createSqliteStore } = await import(
    '../packages/core/dist/store/sqlite.js'
  )
  const dir = db ?? mkdtempSync(join(tmpdir(), 'dn-bench-'))
  const store = await createSqliteStore({ filename: join(dir, 'dn.sqlite') })
  return { store, dir: db ? undefined : dir }
}

async function service() {
  // loaded here: the bare server's RSS is node:http's alone
  const { createBenchOwner } = await import('./benchOwner.mjs')
  const { composeServerDeps } = await import('../packages/cli/dist/index.js')
  const { silentLogger, startHttpServer } = await import(
    '../packages/server/dist/index.js'
  )
  const { createSimMarketData } = await import(
    '../packages/venues/dist/sim/index.js'
  )
  const { store, dir } = await openStore()
  const deps = composeServerDeps({
    store,
    markets: createSimMarketData(),
    masterKey: Buffer.alloc(32, 7),
    env: 'bench',
    rateLimit: 10_000_000,
    logger: silentLogger,
  })
  const srv = await startHttpServer(deps, { port })
  close = async () => {
    await srv.close()
    await store.close()
    if (dir) rmSync(dir, { recursive: true, force: true })
  }
  if (process.env.DN_BENCH_SETUP === '0') return { url: srv.url }
  const created = await createBenchOwner({
    url: srv.url,
    store,
    venueIds: ['hl', 'aster'],
    maxSizeUsd: 1_000_000,
  })
  const task = await fetch(`${srv.url}/v1/delta-neutral/tasks`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${created.apiKey}`,
      'content-type': 'application/json',
      'idempotency-key': randomUUID(),
    },
    body: JSON.stringify({
      longVenue: 'hl',
      shortVenue: 'aster',
      longMarket: 'BTC',
      shortMarket: 'BTCUSDT',
      sizeUsd: 1000,
    }),
  }).then((r) => r.json())
  return { url: srv.url, key: created.apiKey, taskId: task.taskId }
}

const ready = kind === 'bare' ? await bare() : await service()
process.stdout.write(`${JSON.stringify({ ...ready, pid: process.pid })}\n`)
process.stdin.resume()
process.stdin.on('end', async () => {
  await close()
  process.exit(0)
})
