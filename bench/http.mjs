// HTTP benchmark: the service's hot routes against a bare node:http JSON
// server measured in the same run. Run with `npm run bench` (builds first).
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { composeServerDeps } from '../packages/cli/dist/index.js'
import {
  DEFAULT_BINDING_AUTH_DOMAIN,
  walletMessage,
} from '../packages/core/dist/index.js'
import { createSqliteStore } from '../packages/core/dist/store/sqlite.js'
import { silentLogger, startHttpServer } from '../packages/server/dist/index.js'
import { createSimMarketData } from '../packages/venues/dist/sim/index.js'

const DURATION = Number(process.env.BENCH_SECONDS ?? 10)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20)

function run(opts) {
  return new Promise((resolve, reject) => {
    autocannon(
      { duration: DURATION, connections: CONNECTIONS, ...opts },
      (err, res) => (err ? reject(err) : resolve(res)),
    )
  })
}

function row(name, r) {
  return {
    name,
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
  }
}

async function baseline() {
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
  await new Promise((r) => server.listen(0, '127.0.0.1', r))
  const url = `http://127.0.0.1:${server.address().port}`
  const get = await run({ url })
  const post = await run({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"a":1}',
  })
  server.close()
  return { get, post }
}

async function service() {
  const dir = mkdtempSync(join(tmpdir(), 'dn-bench-'))
  const store = await createSqliteStore({ filename: join(dir, 'dn.sqlite') })
  const deps = composeServerDeps({
    store,
    markets: createSimMarketData(),
    masterKey: randomBytes(32),
    env: 'bench',
    rateLimit: 10_000_000,
    logger: silentLogger,
  })
  const srv = await startHttpServer(deps, { port: 0 })
  const wallet = privateKeyToAccount(generatePrivateKey())
  const owner = wallet.address.toLowerCase()
  const now = new Date().toISOString()
  for (const venue of ['hl', 'aster']) {
    await store.bindings.upsert({
      id: randomUUID(),
      owner,
      venue,
      status: 'bound',
      accountIndex: null,
      credentialRef: null,
      credentialCiphertext: null,
      createdAt: now,
      updatedAt: now,
    })
  }
  const expiresAt = Math.floor(Date.now() / 1000) + 120
  const nonce = randomBytes(16).toString('base64url')
  const payload = {
    owner,
    venues: ['hl', 'aster'],
    maxSizeUsd: 1_000_000,
    label: null,
    nonce,
    expiresAt,
  }
  const signature = await wallet.signMessage({
    message: walletMessage(
      DEFAULT_BINDING_AUTH_DOMAIN,
      'create_api_key',
      payload,
    ),
  })
  const created = await fetch(`${srv.url}/v1/api-keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      owner,
      venues: payload.venues,
      maxSizeUsd: payload.maxSizeUsd,
      authorization: { nonce, expiresAt, signature },
    }),
  }).then((r) => r.json())
  const auth = {
    authorization: `Bearer ${created.apiKey}`,
    'content-type': 'application/json',
  }
  const task = await fetch(`${srv.url}/v1/delta-neutral/tasks`, {
    method: 'POST',
    headers: { ...auth, 'idempotency-key': randomUUID() },
    body: JSON.stringify({
      longVenue: 'hl',
      shortVenue: 'aster',
      longMarket: 'BTC',
      shortMarket: 'BTCUSDT',
      sizeUsd: 1000,
    }),
  }).then((r) => r.json())
  const get = await run({
    url: `${srv.url}/v1/delta-neutral/tasks/${task.taskId}`,
    headers: auth,
  })
  let n = 0
  const post = await run({
    url: `${srv.url}/v1/perp/orders`,
    method: 'POST',
    headers: auth,
    body: JSON.stringify({
      venue: 'hl',
      market: 'BTC',
      side: 'long',
      orderType: 'limit',
      sizeBase: 0.001,
      limitPrice: 99000,
    }),
    requests: [
      {
        setupRequest: (req) => ({
          ...req,
          headers: {
            ...auth,
            'idempotency-key': `bench-${process.pid}-${n++}`,
          },
        }),
      },
    ],
  })
  await srv.close()
  await store.close()
  rmSync(dir, { recursive: true, force: true })
  return { get, post }
}

const base = await baseline()
const svc = await service()
const rows = [
  row('bare node:http GET', base.get),
  row('GET /v1/delta-neutral/tasks/{id}', svc.get),
  row('bare node:http POST', base.post),
  row('POST /v1/perp/orders (SQLite)', svc.post),
]
console.log(
  `\n${CONNECTIONS} connections, ${DURATION} s each, node ${process.version}\n`,
)
console.log('| route | req/s | p50 ms | p99 ms | non-2xx | errors | vs bare |')
console.log('|---|---|---|---|---|---|---|')
for (const [i, r] of rows.entries()) {
  const ref = rows[i - (i % 2)]
  const ratio = i % 2 === 0 ? '1.00' : (r.rps / ref.rps).toFixed(2)
  console.log(
    `| ${r.name} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.non2xx} | ${r.errors} | ${ratio} |`,
  )
}
