import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { type ComposedVenues, composeVenues, deriveKey } from '@dn/cli'
import {
  createAesGcmSecrets,
  credentialAad,
  type PerpOrderRecord,
  type Store,
  TERMINAL_ORDER_STATUSES,
  type VenueId,
} from '@dn/core'
import { createSqliteStore } from '@dn/core/sqlite'
import { createSimVenues } from '@dn/venues/sim'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { FEE_CONFIG } from './support/bindingFixtures.js'
import { bundleCli } from './support/bundleCli.js'
import { freePort } from './support/freePort.js'
import { TEST_MASTER_HEX } from './support/spawnDn.js'
import { createOwnerWithKey, type TestOwner } from './support/testService.js'
import { newWallet } from './support/wallet.js'

const RUN_MS = 60_000
/** what a dead process's lease or account lock holds its work for */
const WORKER_LEASE_MS = 30_000
const RESTART_EVERY_MS = 5_000
const ORDERS_PER_SECOND = 10
/** an owner's orders on one market go one at a time: two markets */
const MARKETS: readonly [VenueId, string, number][] = [
  ['hl', 'BTC', 0.001],
  ['aster', 'BTCUSDT', 0.002],
]

/**
 * `dn up` SIGKILLed and restarted on the same data folder every 5 s for a
 * minute while orders arrive at 10 a second: each restart finds its dead
 * predecessor (same machine, its pid gone), fences it and resumes its
 * work at once, so every accepted order is sent and none waits out a
 * lease until its queue deadline. The venues are protocol fakes outside
 * `dn up`, so what was sent survives the kills.
 */
describe('dn up killed and restarted every 5 s under load (sqlite)', () => {
  let cli: string
  let dir: string
  let venues: ComposedVenues
  let store: Store
  let sim: ReturnType<typeof createSimVenues>
  let address: string
  let owner: TestOwner
  let api: string
  let port: number
  let simPort: number
  let up: ChildProcess | undefined
  let upErr = ''

  const start = async () => {
    upErr = ''
    up = spawn(
      process.execPath,
      [
        cli,
        'up',
        '--port',
        String(port),
        '--sim-port',
        String(simPort),
        '--data',
        join(dir, 'data'),
      ],
      {
        env: {
          ...process.env,
          DN_MASTER_KEY: TEST_MASTER_HEX,
          DN_HL_URL: venues.protocolUrls.hl,
          DN_ASTER_URL: venues.protocolUrls.aster,
          DN_LIGHTER_URL: venues.protocolUrls.lighter,
          DN_LIGHTER_MAINNET_URL: venues.protocolUrls['lighter-mainnet'],
          DN_VENUE_STREAMS: 'false',
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    )
    up.stderr?.on('data', (d: Buffer) => {
      upErr += d.toString()
    })
    for (let i = 0; i < 200; i++) {
      const ok = await fetch(`${api}/health`).then(
        (r) => r.ok,
        () => false,
      )
      if (ok) return
      await new Promise((r) => setTimeout(r, 25))
    }
    throw new Error(`dn up did not start: ${upErr}`)
  }
  const kill = async () => {
    const child = up
    if (!child || child.exitCode !== null) return
    const exited = new Promise((r) => child.once('exit', r))
    child.kill('SIGKILL')
    await exited
  }

  beforeAll(async () => {
    cli = await bundleCli()
    dir = mkdtempSync(join(tmpdir(), 'dn-resume-'))
    ;[port, simPort] = [await freePort(), await freePort()]
    api = `http://127.0.0.1:${port}`
    sim = createSimVenues({ seed: 11 })
    venues = await composeVenues(
      sim,
      {},
      { hlMainnet: true, asterTestnet: false, config: FEE_CONFIG },
    )
    await start()
    store = await createSqliteStore({
      filename: join(dir, 'data', 'dn.sqlite'),
    })
    // bound as a signed binding would leave it: the credential at the
    // fake, encrypted under the deployment's key in the database
    const wallet = newWallet()
    address = wallet.address.toLowerCase()
    const secrets = createAesGcmSecrets(
      deriveKey(Buffer.from(TEST_MASTER_HEX, 'hex'), 'venue-credentials'),
    )
    for (const [venue] of MARKETS) {
      // a venue call takes a while, so kills land on orders in flight,
      // their account locks held
      sim.exchanges[venue].setFaults({ latencyMs: 50 })
      sim.faucet(venue, address, 10_000_000)
      const seeded = venues.seedBinding(venue, address)
      const now = new Date().toISOString()
      await store.bindings.upsert({
        id: crypto.randomUUID(),
        owner: address,
        venue,
        status: 'bound',
        accountIndex: null,
        credentialRef: seeded.credentialRef,
        credentialCiphertext: secrets.encrypt(
          seeded.secret,
          credentialAad(address, venue),
        ),
        unusableCode: null,
        createdAt: now,
        updatedAt: now,
      })
    }
    owner = await createOwnerWithKey(
      { store, url: api },
      {
        wallet,
        bound: [],
        venues: MARKETS.map(([v]) => v),
        maxSizeUsd: 1_000_000,
      },
    )
  }, 120_000)

  afterAll(async () => {
    await kill()
    await store?.close()
    await venues?.close()
    if (cli) rmSync(dirname(cli), { recursive: true, force: true })
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  test('every accepted IOC order is sent; none expires for want of a worker', async () => {
    const accepted: string[] = []
    let refused = 0
    let sending = true
    const sender = (async () => {
      for (let n = 0; sending; n++) {
        const [venue, market, sizeBase] = MARKETS[n % MARKETS.length] as [
          VenueId,
          string,
          number,
        ]
        const res = await fetch(`${api}/v1/perp/orders`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${owner.apiKey}`,
            'idempotency-key': crypto.randomUUID(),
          },
          body: JSON.stringify({
            venue,
            market,
            side: n % 4 < 2 ? 'long' : 'short',
            orderType: 'market',
            sizeBase,
          }),
        }).catch(() => null)
        if (res?.status === 202) {
          accepted.push(((await res.json()) as { orderId: string }).orderId)
        } else {
          refused++
          await res?.body?.cancel()
        }
        await new Promise((r) => setTimeout(r, 1000 / ORDERS_PER_SECOND))
      }
    })()
    let restarts = 0
    /** the longest kill-to-answering restart: a resumed order waits about this */
    let slowestRestart = 0
    const until = Date.now() + RUN_MS
    while (Date.now() < until) {
      await new Promise((r) => setTimeout(r, RESTART_EVERY_MS))
      const killedAt = Date.now()
      await kill()
      await start()
      slowestRestart = Math.max(slowestRestart, Date.now() - killedAt)
      restarts++
    }
    sending = false
    await sender

    // the last process runs on: every accepted order ends, but for one
    // whose process was killed between committing `submitting` and writing
    // the request: at-most-once, it is never sent again, and only after its
    // signed send window (plus skew) does "not found" prove it never went
    // out (processPerpOrder, tested in workerOrders.test.ts)
    const atVenue = (o: PerpOrderRecord) =>
      sim.exchanges[o.venue].order(address, o.clientOrderId, o.market) !== null
    const killedBeforeSend = (o: PerpOrderRecord) =>
      o.status === 'unknown' &&
      o.error?.startsWith('the worker stopped while submitting') === true &&
      !atVenue(o)
    const deadline = Date.now() + 60_000
    let orders: PerpOrderRecord[] = []
    while (Date.now() < deadline) {
      orders = (
        await Promise.all(accepted.map((id) => store.orders.get(id)))
      ).filter((o): o is PerpOrderRecord => o !== undefined)
      if (
        orders.every(
          (o) =>
            TERMINAL_ORDER_STATUSES.includes(o.status) || killedBeforeSend(o),
        )
      ) {
        break
      }
      await new Promise((r) => setTimeout(r, 250))
    }
    const unsent = orders.filter(killedBeforeSend)
    const statuses: Record<string, number> = {}
    for (const o of orders) statuses[o.status] = (statuses[o.status] ?? 0) + 1
    // how long an accepted order waited to be sent: a dead predecessor's
    // lease (30 s) would show here
    const waits = orders
      .filter((o) => o.submittedAt !== null)
      .map((o) => Date.parse(o.submittedAt as string) - Date.parse(o.createdAt))
    const longest = Math.max(...waits)
    console.info(
      `fast resumption: ${restarts} SIGKILL restarts, ${accepted.length} orders accepted (${refused} not, while down), ${JSON.stringify(statuses)}, ${unsent.length} killed between commit and send, longest wait to be sent ${longest} ms, slowest restart ${slowestRestart} ms`,
    )
    expect(restarts).toBeGreaterThanOrEqual(10)
    expect(accepted.length).toBeGreaterThan(200)
    expect(orders).toHaveLength(accepted.length)
    expect(
      orders
        .filter(
          (o) =>
            !TERMINAL_ORDER_STATUSES.includes(o.status) && !killedBeforeSend(o),
        )
        .map((o) => `${o.id} ${o.status} ${o.error}`),
    ).toEqual([])
    // the gap is a few milliseconds an order: a kill lands in it rarely
    expect(unsent.length).toBeLessThanOrEqual(Math.ceil(restarts / 4))
    // sent: the venue filled it or refused it, nothing expired unsent
    expect(
      orders
        .filter((o) => o.status === 'expired')
        .map((o) => `${o.id} ${o.error}`),
    ).toEqual([])
    for (const o of orders) expect(o.submittedAt, o.id).not.toBeNull()
    // and the venue has every order the service says it sent
    expect(
      orders
        .filter((o) => !killedBeforeSend(o) && !atVenue(o))
        .map((o) => `${o.id} ${o.status}`),
    ).toEqual([])
    // resumed by the next process as it starts (its predecessor's pid is
    // gone: its leases and account locks are free), not after the 30 s
    // lease or lock expiry (with the locks left to expire, 31 orders
    // expired here and the longest waited 60 s). What else it waits is the
    // restart and the backlog it left (under 1 s on a quiet machine), and
    // on a loaded one a send that missed its 15 s window (waiting for
    // budget, or answered "expired" on arrival) goes again committed
    // afresh, counted from then: a clean-clone CI run on two busy cores
    // measured 15.8 s once and 25.7 s once. Only a wait for a dead
    // process's lease or lock reaches the lease's 30 s from a kill.
    expect(longest).toBeLessThan(WORKER_LEASE_MS)
  }, 240_000)
})
