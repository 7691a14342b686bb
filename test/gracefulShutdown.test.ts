import { rmSync } from 'node:fs'
import { connect } from 'node:net'
import { dirname } from 'node:path'
import {
  type PerpOrderRecord,
  TERMINAL_ORDER_STATUSES,
  type VenueId,
} from '@dn/core'
import {
  createSimVenues,
  type FaucetServer,
  type SimVenues,
  startFaucetServer,
} from '@dn/venues/sim'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { bundleCli } from './support/bundleCli.js'
import { marketOrder } from './support/httpFixtures.js'
import { type SpawnedDn, spawnDn } from './support/spawnDn.js'
import {
  call,
  createOwnerWithKey,
  dialects,
  startTestService,
  type TestOwner,
  type TestService,
} from './support/testService.js'

const VENUES: readonly VenueId[] = ['hl', 'aster', 'lighter', 'lighter-mainnet']
const BURST = 32
/** every venue call takes this long, so the stop lands on calls in flight */
const VENUE_LATENCY_MS = 250
/** one market per venue: an owner's orders on one market go one at a time */
const MARKETS: readonly [VenueId, string][] = [
  ['hl', 'BTC'],
  ['aster', 'BTCUSDT'],
  ['lighter', 'BTC'],
  ['lighter-mainnet', 'BTC'],
]

/**
 * SIGTERM to a `dn worker` in the middle of a burst of orders: it claims
 * nothing more, lets the venue calls in flight answer, gives its leases
 * back, says what it left and exits 0. Nothing is left `submitting` or
 * leased, and the next worker finishes the rest.
 */
describe.each(dialects())('graceful shutdown of dn worker (%s)', (dialect) => {
  let cli: string
  let venues: SimVenues
  let sim: FaucetServer
  let svc: TestService
  let owner: TestOwner

  beforeAll(async () => {
    cli = await bundleCli()
    venues = createSimVenues({ seed: 7 })
    sim = await startFaucetServer({ venues, port: 0 })
    svc = await startTestService({
      dialect,
      markets: venues.marketData,
      rateLimit: 100_000,
    })
    owner = await createOwnerWithKey(svc, { maxSizeUsd: 1_000_000 })
    for (const v of VENUES) {
      venues.faucet(v, owner.owner, 10_000_000)
      venues.exchanges[v].setFaults({ latencyMs: VENUE_LATENCY_MS })
    }
  }, 120_000)
  afterAll(async () => {
    await sim?.close()
    await svc?.close()
    if (cli) rmSync(dirname(cli), { recursive: true, force: true })
  })

  const worker = (id: string): SpawnedDn =>
    spawnDn(cli, svc, dialect, ['worker', '--sim-url', sim.url], id, {})

  const orders = async (ids: readonly string[]) =>
    (await Promise.all(ids.map((id) => svc.store.orders.get(id)))).filter(
      (o): o is PerpOrderRecord => o !== undefined,
    )

  test('SIGTERM during a burst: no order left submitting, no lease held, exit 0', async () => {
    const id = `grace-${dialect}`
    const first = worker(id)
    const ids: string[] = []
    for (let i = 0; i < BURST; i++) {
      const res = await call(svc, 'POST', '/v1/perp/orders', {
        key: owner.apiKey,
        body: marketOrder({
          venue: MARKETS[i % MARKETS.length]?.[0],
          market: MARKETS[i % MARKETS.length]?.[1],
          side: i % 2 === 0 ? 'long' : 'short',
        }),
      })
      expect(res.status, res.text).toBe(202)
      ids.push(res.body.orderId)
      // stop once the worker is busy with the burst
      if (i === BURST / 2) {
        for (let n = 0; n < 200; n++) {
          const seen = await orders(ids)
          if (seen.some((o) => o.leaseOwner === id)) break
          await new Promise((r) => setTimeout(r, 25))
        }
        first.child.kill('SIGTERM')
      }
    }
    const code = await first.exit
    console.info(`${dialect}: ${first.err().trim().split('\n').at(-1)}`)
    expect(code, first.err()).toBe(0)
    expect(first.err()).toMatch(
      /dn: stopped on SIGTERM in [\d.]+ s: no work in flight/,
    )
    const after = await orders(ids)
    expect(after.filter((o) => o.status === 'submitting')).toEqual([])
    expect(after.filter((o) => o.leaseOwner === id)).toEqual([])
    // the worker did take part, and left the rest queued
    expect(after.some((o) => TERMINAL_ORDER_STATUSES.includes(o.status))).toBe(
      true,
    )
    expect(after.some((o) => o.status === 'pending')).toBe(true)

    // the next worker finishes them all
    const next = worker(`${id}-next`)
    try {
      const deadline = Date.now() + 60_000
      let left = after
      while (Date.now() < deadline) {
        left = (await orders(ids)).filter(
          (o) => !TERMINAL_ORDER_STATUSES.includes(o.status),
        )
        if (left.length === 0) break
        await new Promise((r) => setTimeout(r, 200))
      }
      console.info(
        `${dialect}: the next worker finished in ${Date.now() - deadline + 60_000} ms`,
      )
      expect(left.map((o) => `${o.id} ${o.status}`)).toEqual([])
      const final = await orders(ids)
      expect(final.filter((o) => o.status === 'expired')).toEqual([])
    } finally {
      await next.stop()
    }
    expect(await next.exit).toBe(0)
  }, 180_000)
})

/**
 * SIGTERM to `dn serve` while a request is being received: the request
 * is still read and answered, then the server exits 0.
 */
describe('graceful shutdown of dn serve', () => {
  let cli: string
  let sim: FaucetServer
  let svc: TestService

  beforeAll(async () => {
    cli = await bundleCli()
    const venues = createSimVenues({ seed: 8 })
    sim = await startFaucetServer({ venues, port: 0 })
    svc = await startTestService({
      dialect: 'sqlite',
      markets: venues.marketData,
    })
  }, 120_000)
  afterAll(async () => {
    await sim?.close()
    await svc?.close()
    if (cli) rmSync(dirname(cli), { recursive: true, force: true })
  })

  test('a request in flight at SIGTERM is answered; an idle kept-alive connection is closed; exit 0', async () => {
    const serve = spawnDn(
      cli,
      svc,
      'sqlite',
      ['serve', '--port', '0', '--sim-url', sim.url],
      'grace-serve',
      {},
    )
    const { hostname, port } = new URL(await serve.apiUrl())
    const open = async () => {
      const socket = connect(Number(port), hostname)
      let data = ''
      socket.on('data', (d) => {
        data += d.toString()
      })
      socket.on('error', () => {})
      const closed = new Promise<void>((r) => socket.once('close', () => r()))
      await new Promise<void>((r) => socket.once('connect', () => r()))
      return { socket, closed, data: () => data }
    }
    // one connection answered once and kept alive, idle at the signal
    const idle = await open()
    idle.socket.write('GET /health HTTP/1.1\r\nhost: x\r\n\r\n')
    for (let i = 0; i < 100 && !idle.data().includes('{"ok":true}'); i++) {
      await new Promise((r) => setTimeout(r, 20))
    }
    // one whose body is half sent when the signal comes
    const busy = await open()
    const body = '{"owner":'
    busy.socket.write(
      `POST /v1/api-keys HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${body.length + 1}\r\n\r\n${body}`,
    )
    await new Promise((r) => setTimeout(r, 200))
    serve.child.kill('SIGTERM')
    await idle.closed
    await new Promise((r) => setTimeout(r, 300))
    busy.socket.write('}')
    await busy.closed
    expect(busy.data()).toMatch(/^HTTP\/1.1 400 /)
    expect(busy.data()).toMatch(/"code":"/)
    expect(await serve.exit).toBe(0)
    expect(serve.err()).toMatch(
      /dn: stopped on SIGTERM in [\d.]+ s: every request answered/,
    )
  }, 60_000)
})
