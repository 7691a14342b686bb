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
  const { boundHeapGrowth, composeServerDeps } = await import(
    '../packages/cli/dist/index.js'
  )
  // as `dn serve` does on start
  boundHeapGrowth()
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
  if (kind === 'floor') {
    await srv.close()
    return floorServer({ store, dir }, created.apiKey, task.taskId)
  }
  if (kind === 'postFloor') {
    await srv.close()
    return postFloorServer({ store, dir }, created.apiKey)
  }
  return { url: srv.url, key: created.apiKey, taskId: task.taskId }
}

/**
 * What both floors start from: the service's SQLite file opened with
 * better-sqlite3 (WAL, synchronous=FULL as the store opens it), the
 * revocation counter's prepared read, and the bearer check (the secret's
 * HMAC against a kept hash).
 */
async function floorBase({ dir }, key) {
  const { createHmac, timingSafeEqual } = await import('node:crypto')
  const { createRequire } = await import('node:module')
  const require = createRequire(
    new URL('../packages/core/package.json', import.meta.url),
  )
  const Database = require('better-sqlite3')
  const db = new Database(join(dir, 'dn.sqlite'))
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = FULL')
  const mark = db.prepare('select value from counters where name = ?')
  const pepper = Buffer.alloc(32, 9)
  const hmac = (secret) => createHmac('sha256', pepper).update(secret).digest()
  const kept = hmac(key.split('.')[1])
  /** the bearer's HMAC checked, the revocation counter read */
  const authorized = (req) => {
    const token = (req.headers.authorization ?? '').slice('Bearer '.length)
    const ok = timingSafeEqual(hmac(token.split('.')[1] ?? ''), kept)
    mark.get('api_key_revocations')
    return ok
  }
  return { db, authorized }
}

/** Serves `handler` on the port; `close` then frees the floor's parts. */
async function listenFloor({ store, dir }, db, handler) {
  const server = createServer(handler)
  await new Promise((r) => server.listen(port, '127.0.0.1', r))
  close = async () => {
    await new Promise((r) => server.close(r))
    db.close()
    await store.close()
    rmSync(dir, { recursive: true, force: true })
  }
  return `http://127.0.0.1:${server.address().port}`
}

/**
 * The least an authenticated task read does, with none of dn's layers:
 * node:http, the bearer secret's HMAC checked against a kept hash, the
 * revocation counter and the task row read through prepared
 * better-sqlite3 statements on the service's own file, the row as JSON.
 * What the GET could cost at best on this machine.
 */
async function floorServer(svc, key, taskId) {
  const { db, authorized } = await floorBase(svc, key)
  const read = db.prepare('select * from tasks where id = ?')
  const url = await listenFloor(svc, db, (req, res) => {
    req.resume()
    const row = authorized(req) ? read.get(req.url.split('/').pop()) : undefined
    const body = JSON.stringify(row ? { task: row } : { error: 'not found' })
    res.writeHead(row ? 200 : 404, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
    })
    res.end(body)
  })
  return { url, key, taskId }
}

/**
 * The least a durable authenticated order POST does, with none of dn's
 * layers: node:http, the body read and parsed, the bearer secret's HMAC,
 * the revocation counter read, a few field checks, and the order and its
 * idempotency key inserted through prepared better-sqlite3 statements on
 * the service's own file (WAL, synchronous=FULL), the requests of one turn
 * of the event loop in one transaction (one fsync), each answered 202
 * after its commit.
 */
async function postFloorServer(svc, key) {
  const { randomUUID: uuid } = await import('node:crypto')
  const { db, authorized } = await floorBase(svc, key)
  db.exec(`create table if not exists floor_orders (id text primary key,
    owner text not null, venue text not null, market text not null,
    side text not null, size text not null, price text, created_at integer not null);
    create table if not exists floor_idempotency (key text primary key,
    order_id text not null)`)
  const insertOrder = db.prepare(
    'insert into floor_orders values (?, ?, ?, ?, ?, ?, ?, ?)',
  )
  const insertKey = db.prepare('insert into floor_idempotency values (?, ?)')
  let queue = []
  const commit = db.transaction((members) => {
    for (const m of members) {
      insertOrder.run(
        m.id,
        'owner',
        m.o.venue,
        m.o.market,
        m.o.side,
        String(m.o.sizeBase),
        m.o.limitPrice === undefined ? null : String(m.o.limitPrice),
        Date.now(),
      )
      insertKey.run(m.key, m.id)
    }
  })
  const flush = () => {
    const members = queue
    queue = []
    commit(members)
    for (const m of members) {
      const body = JSON.stringify({ orderId: m.id, status: 'pending' })
      m.res.writeHead(202, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
      })
      m.res.end(body)
    }
  }
  const url = await listenFloor(svc, db, (req, res) => {
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      const ok = authorized(req)
      let o
      try {
        o = JSON.parse(Buffer.concat(chunks).toString('utf8'))
      } catch {}
      const valid =
        ok &&
        typeof o?.venue === 'string' &&
        typeof o.market === 'string' &&
        (o.side === 'long' || o.side === 'short') &&
        typeof o.sizeBase === 'number' &&
        o.sizeBase > 0
      if (!valid) {
        res.writeHead(400).end()
        return
      }
      queue.push({
        id: uuid(),
        key: req.headers['idempotency-key'] ?? uuid(),
        o,
        res,
      })
      if (queue.length === 1) setImmediate(flush)
    })
  })
  return { url, key }
}

const ready = kind === 'bare' ? await bare() : await service()
process.stdout.write(`${JSON.stringify({ ...ready, pid: process.pid })}\n`)
process.stdin.resume()
process.stdin.on('end', async () => {
  await close()
  process.exit(0)
})
