import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { deriveKey } from '@dn/cli'
import { createAesGcmSecrets, resolveCredential, type VenueId } from '@dn/core'
import { createSqliteStore } from '@dn/core/sqlite'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { bundleCli } from './support/bundleCli.js'
import { type DnUpProcess, startDnUp } from './support/dnUpProcess.js'
import { freePort } from './support/freePort.js'
import { runPiped } from './support/runCli.js'

type Line = Record<string, unknown> & { msg: string; level: string }

/** One sample of a metric in Prometheus' text format, or undefined. */
function sample(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue
    const ok = Object.entries(labels).every(([k, v]) =>
      line.includes(`${k}="${v}"`),
    )
    if (ok) return Number(line.slice(line.lastIndexOf(' ') + 1))
  }
  return undefined
}

/**
 * Logs and metrics of a real `dn up` driven through a whole flow by the
 * CLI: bind three venues, create a key, open and close a task, place and
 * cancel an order, at DN_LOG_LEVEL=debug. No secret involved may reach a
 * log line; every request and worker event line carries its ids; and
 * /metrics shows the traffic.
 */
describe('observability of a running dn up', () => {
  let cli: string
  let dir: string
  let up: DnUpProcess
  let env: Record<string, string>
  let wallet: string
  let worker: ChildProcess | undefined
  const saved = process.env.DN_LOG_LEVEL

  async function json<T>(...args: string[]): Promise<T> {
    const r = await runPiped(cli, [...args, '--json'], env)
    expect(r.code, `${args.join(' ')}: ${r.err}`).toBe(0)
    return JSON.parse(r.out) as T
  }
  async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean) {
    for (let i = 0; i < 120; i++) {
      const v = await read()
      if (ok(v)) return v
      await new Promise((r) => setTimeout(r, 250))
    }
    throw new Error('still not so after 30 s')
  }
  const scrape = async (url: string) => {
    const res = await fetch(url)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/)
    return res.text()
  }

  beforeAll(async () => {
    cli = await bundleCli()
    dir = mkdtempSync(join(tmpdir(), 'dn-obs-'))
    // the spawned dn up inherits it: every debug line is written too
    process.env.DN_LOG_LEVEL = 'debug'
    up = await startDnUp(cli, join(dir, 'data'))
    wallet = join(dir, 'wallet.json')
    env = {
      DN_URL: up.api,
      DN_SIM_URL: up.sim,
      DN_CONFIG: join(dir, 'config', 'dn.json'),
      DN_PRIVATE_KEY: '',
      DN_API_KEY: '',
      DN_PROFILE: '',
      DN_MASTER_KEY: '',
    }
  }, 60_000)

  afterAll(async () => {
    if (saved === undefined) delete process.env.DN_LOG_LEVEL
    else process.env.DN_LOG_LEVEL = saved
    if (worker && worker.exitCode === null) worker.kill('SIGKILL')
    await up?.stop()
    if (cli) rmSync(dirname(cli), { recursive: true, force: true })
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  test('no secret in any log line; request and worker lines carry their ids; /metrics moves', async () => {
    await json('wallet', 'new', '--file', wallet)
    const funded = await json<{ venue: string; accountIndex: number }[]>(
      'faucet',
      '--wallet',
      wallet,
      '--venues',
      'hl,aster,lighter',
    )
    const lighter = funded.find((f) => f.venue === 'lighter')?.accountIndex
    const bound = await runPiped(
      cli,
      ['bind', '--venues', `hl,aster,lighter:${lighter}`, '--wallet', wallet],
      env,
    )
    expect(bound.code, bound.err).toBe(0)
    const created = await runPiped(
      cli,
      [
        'keys',
        'create',
        '--venues',
        'hl,aster',
        '--max-size-usd',
        '5000',
        '--save',
        '--wallet',
        wallet,
      ],
      env,
    )
    expect(created.code, created.err).toBe(0)
    const apiKey = /dn_local_([0-9a-f-]{36})\.([A-Za-z0-9_-]{43})/.exec(
      created.out,
    )
    expect(apiKey).not.toBeNull()
    const [, keyId, keySecret] = apiKey as unknown as [string, string, string]

    const before = await scrape(`${up.api}/metrics`)

    const { taskId } = await json<{ taskId: string }>(
      'tasks',
      'create',
      '--long',
      'hl:BTC',
      '--short',
      'aster:BTCUSDT',
      '--size-usd',
      '200',
      '--no-auto-close',
    )
    await until(
      () => json<{ task: { status: string } }>('tasks', 'get', taskId),
      (t) => t.task.status === 'running',
    )
    const markets = await json<{ markets: { symbol: string; mark: string }[] }>(
      'markets',
      '--venue',
      'hl',
      '--symbol',
      'BTC',
    )
    const mark = Number(markets.markets.find((m) => m.symbol === 'BTC')?.mark)
    const { orderId } = await json<{ orderId: string }>(
      'orders',
      'create',
      '--venue',
      'hl',
      '--market',
      'BTC',
      '--side',
      'long',
      '--size',
      '0.001',
      '--price',
      String(Math.round((mark * 0.5) / 10) * 10),
    )
    await until(
      () => json<{ order: { status: string } }>('orders', 'get', orderId),
      (o) => o.order.status === 'open',
    )
    await json('orders', 'cancel', orderId)
    await until(
      () => json<{ order: { status: string } }>('orders', 'get', orderId),
      (o) => o.order.status === 'cancelled',
    )
    await json('tasks', 'close', taskId)
    await until(
      () => json<{ task: { status: string } }>('tasks', 'get', taskId),
      (t) => t.task.status === 'closed',
    )

    // /metrics over real HTTP, after the traffic
    const after = await scrape(`${up.api}/metrics`)
    const posts = { route: '/v1/perp/orders', method: 'POST', status: '202' }
    expect(sample(after, 'dn_http_requests_total', posts)).toBeGreaterThan(
      sample(before, 'dn_http_requests_total', posts) ?? 0,
    )
    expect(
      sample(after, 'dn_http_request_duration_seconds_count', {
        route: '/v1/perp/orders',
        method: 'POST',
      }),
    ).toBeGreaterThan(0)
    expect(
      sample(after, 'dn_accept_to_venue_seconds_count', {
        kind: 'order',
        venue: 'hl',
      }),
    ).toBeGreaterThan(0)
    // the task's opening legs, from its acceptance
    for (const venue of ['hl', 'aster']) {
      expect(
        sample(after, 'dn_accept_to_venue_seconds_count', {
          kind: 'task',
          venue,
        }),
        venue,
      ).toBe(1)
    }
    for (const venue of ['hl', 'aster', 'lighter']) {
      expect(
        sample(after, 'dn_venue_budget_ceiling', { venue }),
        venue,
      ).toBeGreaterThan(0)
      expect(sample(after, 'dn_venue_budget_used', { venue })).toBeDefined()
      expect(
        sample(after, 'dn_venue_requests_total', { venue }),
        venue,
      ).toBeGreaterThan(0)
    }
    expect(
      sample(after, 'dn_worker_transitions_total', {
        kind: 'order',
        from: 'pending',
        to: 'submitting',
      }),
    ).toBeGreaterThan(0)
    expect(
      sample(after, 'dn_worker_transitions_total', {
        kind: 'task',
        to: 'running',
      }),
    ).toBeGreaterThan(0)
    for (const kind of ['task', 'order', 'binding']) {
      expect(sample(after, 'dn_work_queue_due', { kind })).toBeDefined()
      expect(
        sample(after, 'dn_work_queue_oldest_due_seconds', { kind }),
      ).toBeDefined()
    }
    expect(sample(after, 'dn_tasks_running')).toBe(0)
    expect(sample(after, 'dn_orders_unknown')).toBe(0)

    // a `dn worker` serves its own metrics on --metrics-port (its own
    // store here: it is scraped, not exercised)
    const port = await freePort()
    worker = spawn(
      process.execPath,
      [
        cli,
        'worker',
        '--data',
        join(dir, 'worker'),
        '--sim-url',
        up.sim,
        '--metrics-port',
        String(port),
      ],
      {
        env: {
          ...process.env,
          DN_MASTER_KEY: randomBytes(32).toString('hex'),
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    )
    let workerErr = ''
    worker.stderr?.on('data', (d: Buffer) => {
      workerErr += d.toString()
    })
    await until(
      async () => workerErr,
      (e) => e.includes(`metrics http://127.0.0.1:${port}/metrics`),
    )
    const scraped = await scrape(`http://127.0.0.1:${port}/metrics`)
    expect(sample(scraped, 'dn_venue_budget_ceiling', { venue: 'hl' })).toBe(
      sample(after, 'dn_venue_budget_ceiling', { venue: 'hl' }),
    )
    expect(sample(scraped, 'dn_work_queue_due', { kind: 'order' })).toBe(0)
    expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404)
    worker.kill('SIGTERM')
    await new Promise((r) => worker?.once('exit', r))

    // every line dn up wrote, after it stopped
    const data = join(dir, 'data')
    expect(await up.stop()).toBe(0)
    const text = up.err()
    const lines: Line[] = text
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Line)
    expect(lines.length).toBeGreaterThan(20)
    expect(lines.some((l) => l.level === 'debug')).toBe(true)

    // every secret involved, none in the logs
    const masterKey = readFileSync(join(data, 'master.key'), 'utf8').trim()
    const privateKey = (
      JSON.parse(readFileSync(wallet, 'utf8')) as { privateKey: string }
    ).privateKey
    const secrets = [keySecret, masterKey, privateKey]
    const store = await createSqliteStore({
      filename: join(data, 'dn.sqlite'),
    })
    try {
      const sealed = createAesGcmSecrets(
        deriveKey(Buffer.from(masterKey, 'hex'), 'venue-credentials'),
      )
      const owner = (
        JSON.parse(readFileSync(wallet, 'utf8')) as { address: string }
      ).address.toLowerCase()
      for (const venue of ['hl', 'aster', 'lighter'] as VenueId[]) {
        const { secret } = await resolveCredential(store, sealed, owner, venue)
        // an agent private key (hl, aster), Lighter's API private key
        expect(secret, venue).toEqual(expect.any(String))
        secrets.push(secret as string)
        // a credential may be a JSON of several keys
        try {
          const parsed = JSON.parse(secret as string) as Record<string, unknown>
          for (const v of Object.values(parsed)) {
            if (typeof v === 'string' && v.length >= 32) secrets.push(v)
          }
        } catch {}
      }
    } finally {
      await store.close()
    }
    for (const s of [...secrets]) {
      if (s.startsWith('0x')) secrets.push(s.slice(2))
    }
    expect(secrets.length).toBeGreaterThanOrEqual(7)
    for (const s of secrets) {
      expect(s.length).toBeGreaterThanOrEqual(32)
      expect(text.toLowerCase().includes(s.toLowerCase()), 'a secret').toBe(
        false,
      )
    }

    // request lines: request id, key id, route template, status, latency
    const requests = lines.filter((l) => l.msg === 'request')
    const orderPost = requests.find(
      (l) => l.route === '/v1/perp/orders' && l.method === 'POST',
    )
    expect(orderPost).toMatchObject({
      requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      apiKeyId: keyId,
      status: 202,
      ms: expect.any(Number),
    })
    expect(
      requests.some(
        (l) =>
          l.route === '/v1/perp/orders/{orderId}' &&
          l.path === `/v1/perp/orders/${orderId}`,
      ),
    ).toBe(true)

    // worker lines: the order's, the task's and the binding's transitions
    const transitions = lines.filter((l) => l.msg === 'worker transition')
    expect(transitions).toContainEqual(
      expect.objectContaining({
        kind: 'order',
        id: orderId,
        venue: 'hl',
        from: 'pending',
        to: 'submitting',
        ms: expect.any(Number),
      }),
    )
    expect(transitions).toContainEqual(
      expect.objectContaining({ kind: 'order', id: orderId, to: 'cancelled' }),
    )
    expect(transitions).toContainEqual(
      expect.objectContaining({ kind: 'task', id: taskId, to: 'running' }),
    )
    expect(transitions).toContainEqual(
      expect.objectContaining({ kind: 'task', id: taskId, to: 'closed' }),
    )
    expect(transitions).toContainEqual(
      expect.objectContaining({
        kind: 'binding',
        venue: 'lighter',
        to: 'bound',
      }),
    )
    expect(lines).toContainEqual(
      expect.objectContaining({
        msg: 'venue submit',
        id: orderId,
        acceptToVenueMs: expect.any(Number),
      }),
    )
  }, 180_000)
})
