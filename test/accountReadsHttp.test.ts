import { createDnClient, type DnClient } from '@dn/client'
import type { VenueId } from '@dn/core'
import type { SimVenues } from '@dn/venues/sim'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { FEE_CONFIG } from './support/bindingFixtures.js'
import { client, fails, ISO_RE } from './support/httpFixtures.js'
import {
  type ProtocolService,
  startProtocolService,
} from './support/protocolService.js'
import { dialects } from './support/testService.js'

const MASTER = Buffer.alloc(32, 7)
/** short, so a test sees idle accounts read again */
const REFRESH_MS = 2_000
const POSITIONS = '/v1/positions'
const BALANCES = '/v1/balances'

interface Row {
  venue: VenueId
  accountIndex: string | null
  readAt: string | null
  ageMs: number | null
  positions: Record<string, string | null>[]
  [field: string]: unknown
}

/** Polls `read` until `ok` holds for its answer. */
async function until<T>(
  read: () => Promise<T>,
  ok: (value: T) => boolean,
  timeoutMs = 20_000,
): Promise<T> {
  const end = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (ok(value)) return value
    if (Date.now() > end) {
      throw new Error(`timed out; last: ${JSON.stringify(value)}`)
    }
    await new Promise((r) => setTimeout(r, 100))
  }
}

const byVenue = (rows: Row[]) =>
  Object.fromEntries(rows.map((r) => [r.venue, r])) as Record<VenueId, Row>

/**
 * GET /v1/positions and /v1/balances through the service as `dn up` runs
 * it: every venue on its real protocol against its fake, a real worker
 * keeping account snapshots, wallets bound by signature.
 */
describe.each(dialects())('account reads over HTTP (%s)', (dialect) => {
  let bed: ProtocolService
  let sim: SimVenues
  const S = client(() => bed.svc)
  const walletA = privateKeyToAccount(generatePrivateKey())
  const walletB = privateKeyToAccount(generatePrivateKey())
  const a = walletA.address.toLowerCase()
  let lighterIndex: number
  /** A's key granting every venue A bound (hl, lighter, aster) */
  let keyA: string
  /** A's key granting hl and aster only */
  let keyAPart: string
  /** B's key (hl, aster) */
  let keyB: string
  let dnA: DnClient

  beforeAll(async () => {
    bed = await startProtocolService({
      dialect,
      seed: 71,
      masterKey: MASTER,
      config: FEE_CONFIG,
      workerId: `accounts-${dialect}`,
      workerOptions: { snapshotRefreshMs: REFRESH_MS },
    })
    sim = bed.sim
    lighterIndex = sim.faucet('lighter', a).accountIndex
    dnA = await bed.bindAndKey(walletA, [
      { venue: 'hl' },
      { venue: 'lighter', accountIndex: lighterIndex },
      { venue: 'aster' },
    ])
    await bed.bindAndKey(walletB, [{ venue: 'hl' }, { venue: 'aster' }])
    const anon = createDnClient({ baseUrl: bed.svc.url })
    const key = async (
      wallet: typeof walletA,
      venues: ('hl' | 'lighter' | 'aster')[],
    ) =>
      (await anon.createApiKey(wallet, { venues, maxSizeUsd: 20_000 })).apiKey
    keyA = await key(walletA, ['hl', 'lighter', 'aster'])
    keyAPart = await key(walletA, ['hl', 'aster'])
    keyB = await key(walletB, ['hl', 'aster'])
  }, 90_000)

  afterAll(() => bed?.close())

  const balances = async (key: string, query = '') =>
    (await S.get(`${BALANCES}${query}`, key)).body.accounts as Row[]
  const positions = async (key: string, query = '') =>
    (await S.get(`${POSITIONS}${query}`, key)).body.accounts as Row[]

  test('every bound account is listed and read: balances show the faucet collateral', async () => {
    const rows = await until(
      () => balances(keyA),
      (r) => r.length === 3 && r.every((x) => x.readAt !== null),
    )
    expect(rows.map((r) => [r.venue, r.accountIndex])).toEqual([
      ['aster', null],
      ['hl', null],
      ['lighter', String(lighterIndex)],
    ])
    for (const r of rows) {
      expect(r.readAt).toMatch(ISO_RE)
      expect(r.ageMs).toBeGreaterThanOrEqual(0)
      // nothing held yet: equity and available are the deposit
      const collateral = sim.exchanges[r.venue].account(a).collateralUsd
      expect(r, r.venue).toMatchObject({
        equityUsd: collateral,
        availableUsd: collateral,
        marginUsedUsd: '0',
      })
    }
    // a deposit shows within a refresh period
    const before = Number(byVenue(rows).hl.equityUsd)
    sim.faucet('hl', a, 5_000)
    await until(
      () => balances(keyA, '?venue=hl'),
      (r) => Number(r[0]?.equityUsd) === before + 5_000,
    )
  })

  test("positions appear once a task opens, as the venues' fills left them", async () => {
    const { taskId } = await dnA.createTask({
      longVenue: 'hl',
      shortVenue: 'aster',
      longMarket: 'ETH',
      shortMarket: 'ETHUSDT',
      sizeUsd: 1_000,
      autoClose: false,
    })
    const running = await dnA.waitForTask(taskId, {
      intervalMs: 25,
      timeoutMs: 20_000,
    })
    expect(running.status).toBe('running')
    // shown as soon as the task is running: the worker writes what its own
    // fills changed before it saves the new status (issue 32)
    const rows = byVenue(await positions(keyA))
    const [hlEngine] = sim.exchanges.hl.positions(a)
    expect(rows.hl.positions).toMatchObject([
      {
        market: 'ETH',
        side: 'long',
        sizeBase: running.longSize,
        entryPrice: hlEngine?.entryPrice,
        markPrice: expect.stringMatching(/^[0-9]+(\.[0-9]+)?$/),
        unrealizedPnlUsd: expect.stringMatching(/^-?[0-9]+(\.[0-9]+)?$/),
        leverage: expect.stringMatching(/^[0-9]+(\.[0-9]+)?$/),
        marginMode: hlEngine?.marginMode,
      },
    ])
    // unknown (null) between our own fill and the venue's next read
    const liq = rows.hl.positions[0]?.liquidationPrice
    expect(liq === null || /^[0-9]+(\.[0-9]+)?$/.test(String(liq))).toBe(true)
    expect(rows.aster.positions).toMatchObject([
      { market: 'ETHUSDT', side: 'short', sizeBase: running.shortSize },
    ])
    // PnL is size × (mark − entry), exactly
    const p = rows.hl.positions[0] as Record<string, string>
    expect(Number(p.unrealizedPnlUsd)).toBeCloseTo(
      Number(p.sizeBase) * (Number(p.markPrice) - Number(p.entryPrice)),
      6,
    )
    // the margin the position holds shows in the balance
    await until(
      () => balances(keyA, '?venue=hl'),
      (r) => Number(r[0]?.marginUsedUsd) > 0,
    )
    // a venue the task does not use keeps its account, no positions
    expect(rows.lighter.positions).toEqual([])
  })

  test('ageMs grows between reads, and the snapshot is read again', async () => {
    const first = byVenue(await positions(keyA)).lighter
    await new Promise((r) => setTimeout(r, 300))
    const second = byVenue(await positions(keyA)).lighter
    if (second.readAt === first.readAt) {
      expect(second.ageMs).toBeGreaterThanOrEqual((first.ageMs ?? 0) + 250)
    }
    const later = await until(
      async () => byVenue(await positions(keyA)).lighter,
      (r) => Date.parse(r.readAt ?? '') > Date.parse(second.readAt ?? ''),
    )
    expect(later.ageMs).toBeLessThan(REFRESH_MS * 3)
  })

  test('an owner sees only its own accounts, on the venues its key grants', async () => {
    const mine = await positions(keyB)
    expect(mine.map((r) => r.venue)).toEqual(['aster', 'hl'])
    // B's accounts are empty: A's task positions never show here
    expect(mine.flatMap((r) => r.positions)).toEqual([])
    expect((await balances(keyAPart)).map((r) => r.venue)).toEqual([
      'aster',
      'hl',
    ])
    expect(
      (await positions(keyA, '?venue=lighter')).map((r) => r.venue),
    ).toEqual(['lighter'])
    for (const path of [POSITIONS, BALANCES]) {
      const res = await fails(
        S.get(`${path}?venue=lighter`, keyAPart),
        '403 venue_not_granted',
      )
      expect(res.body.venues).toEqual(['lighter'])
    }
  })

  test('400 on a bad query, 401 without a key', async () => {
    for (const path of [POSITIONS, BALANCES]) {
      await fails(S.get(`${path}?venue=binance`, keyA), '400 invalid_query')
      await fails(S.get(`${path}?venue=hl&venue=hl`, keyA), '400 invalid_query')
      await fails(S.get(`${path}?limit=5`, keyA), '400 invalid_query')
      await fails(S.get(path), '401 unauthorized')
    }
  })

  test('the client and /openapi.json know both routes', async () => {
    expect((await dnA.positions({ venue: 'hl' })).accounts[0]?.venue).toBe('hl')
    expect((await dnA.balances()).accounts.map((r) => r.venue)).toEqual([
      'aster',
      'hl',
      'lighter',
    ])
    const doc = (await S.get('/openapi.json')).body
    for (const [path, id, schema] of [
      [POSITIONS, 'listPositions', 'PositionList'],
      [BALANCES, 'listBalances', 'BalanceList'],
    ] as const) {
      const op = doc.paths[path].get
      expect(op.operationId).toBe(id)
      expect(Object.keys(op.responses)).toEqual([
        '200',
        '400',
        '401',
        '403',
        '404',
        '429',
        '503',
      ])
      expect(op.parameters).toEqual([
        {
          name: 'venue',
          in: 'query',
          required: false,
          schema: { $ref: '#/components/schemas/Venue' },
        },
      ])
      expect(doc.components.schemas[schema]).toBeDefined()
    }
  })

  test('no venue call on the request path: answers while every venue is down', async () => {
    await bed.worker.stop()
    const venues: VenueId[] = ['hl', 'lighter', 'lighter-mainnet', 'aster']
    for (const v of venues) sim.exchanges[v].setFaults({ outage: true })
    try {
      const before = byVenue(await positions(keyA))
      await new Promise((r) => setTimeout(r, 200))
      const res = await S.get(POSITIONS, keyA)
      expect(res.status).toBe(200)
      const after = byVenue(res.body.accounts)
      expect(after.hl.readAt).toBe(before.hl.readAt)
      expect(after.hl.positions).toEqual(before.hl.positions)
      expect(after.hl.ageMs).toBeGreaterThan(before.hl.ageMs ?? 0)
      const bal = await S.get(BALANCES, keyA)
      expect(bal.status).toBe(200)
      expect(byVenue(bal.body.accounts).hl.equityUsd).toMatch(/^[0-9]/)
    } finally {
      for (const v of venues) sim.exchanges[v].setFaults({ outage: false })
    }
  })
})
