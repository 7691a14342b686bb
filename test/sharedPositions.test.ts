import { readLedger, storeHolders, type WorkerObserver } from '@dn/core'
import { createDnMetrics } from '@dn/server'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { call, dialects, type TestOwner } from './support/testService.js'
import { startWorkerBed, type WorkerBed } from './support/workerHarness.js'

const ORDERS = '/v1/perp/orders'
/** A monitor cycle and a little: the sweep's positions are 10 s old at most. */
const CYCLE_MS = 11_000

/**
 * Two things of one owner on one venue market: the venue nets them into
 * one position, and each keeps its own (the position ledger).
 */
describe.each(dialects())(
  'positions that share a venue market (%s)',
  (dialect) => {
    let bed: WorkerBed
    let o: TestOwner
    beforeAll(async () => {
      bed = await startWorkerBed({ dialect })
    })
    // each test its own venue accounts
    beforeEach(async () => {
      o = await bed.owner()
    })
    afterAll(() => bed?.close())

    const get = (id: string) => bed.getTask(o, id)
    const net = (venue: 'aster' | 'hl', market: string) =>
      bed.venues.exchanges[venue]
        .positions(o.owner)
        .find((p) => p.market === market)?.size ?? '0'

    test('opposite legs of two tasks on one market both stay running, and both close cleanly', async () => {
      // A short hl BTC, B long it (both pairs earn funding in this run)
      const a = await bed.createTask(o, {
        shortVenue: 'hl',
        shortMarket: 'BTC',
      })
      await bed.drain()
      expect((await get(a)).status).toBe('running')
      const b = await bed.createTask(o, {
        longVenue: 'hl',
        longMarket: 'BTC',
        shortVenue: 'lighter',
        shortMarket: 'BTC',
      })
      await bed.drain()
      const [ta, tb] = [await get(a), await get(b)]
      expect(tb.status, JSON.stringify(tb)).toBe('running')
      // the legs net out at the venue
      expect(Number(net('hl', 'BTC'))).toBeCloseTo(
        Number(tb.longSize) - Number(ta.shortSize),
        9,
      )
      for (let i = 0; i < 4; i++) {
        await bed.advance(CYCLE_MS)
        for (const id of [a, b]) {
          const t = await get(id)
          expect(t, `cycle ${i}: ${JSON.stringify(t)}`).toMatchObject({
            status: 'running',
            closeReason: null,
            error: null,
          })
        }
      }
      for (const id of [a, b]) {
        expect((await bed.taskAction(o, id, 'close')).status).toBe(202)
        await bed.drain()
        const t = await get(id)
        expect(t, JSON.stringify(t)).toMatchObject({
          status: 'closed',
          closeReason: 'requested',
          error: null,
        })
      }
      expect(Number(net('hl', 'BTC'))).toBe(0)
    })

    test('a direct order on a running task’s market leaves the task running and its legs unchanged', async () => {
      const a = await bed.createTask(o)
      await bed.drain()
      const before = await get(a)
      expect(before.status).toBe('running')
      // sells twice the task's long leg: the venue's net turns short
      await sellDirect('aster', 'BTCUSDT', Number(before.longSize) * 2)
      for (let i = 0; i < 3; i++) {
        await bed.advance(CYCLE_MS)
        expect(await get(a)).toMatchObject({
          status: 'running',
          longSize: before.longSize,
          shortSize: before.shortSize,
          error: null,
        })
      }
      // the close sells the task's own long leg: not reduce-only (the net
      // is short already), and the direct order's short stays
      await bed.taskAction(o, a, 'close')
      await bed.drain()
      const closed = await get(a)
      expect(closed, JSON.stringify(closed)).toMatchObject({
        status: 'closed',
        error: null,
      })
      expect(Number(net('aster', 'BTCUSDT'))).toBeCloseTo(
        -Number(before.longSize) * 2,
        9,
      )
    })

    test("a close whose leg part is below the venue's smallest order and would grow the net's other side leaves it there, noted, and sends nothing the venue refuses", async () => {
      const ta = await openRunning({
        longVenue: 'hl',
        longMarket: 'BTC',
        sizeUsd: 25,
      })
      const a = ta.taskId
      // a direct short larger than the leg: the venue's net is short
      await sellDirect('hl', 'BTC', Number(ta.longSize) * 2)
      const shortNet = net('hl', 'BTC')
      expect(Number(shortNet)).toBeCloseTo(-Number(ta.longSize), 9)
      // the leg is worth less than hl's USD 10 minimum now
      bed.venues.exchanges.hl.setMark('BTC', '30000')
      const sent = bed.venues.exchanges.hl.fills(o.owner, 0).length
      // the worker's quotes follow (its monitor may close the task on
      // the loss first: the same close)
      await bed.advance(CYCLE_MS)
      await bed.taskAction(o, a, 'close')
      await bed.drain()
      const closed = await get(a)
      expect(closed, JSON.stringify(closed)).toMatchObject({
        status: 'closed',
        longSize: '0',
        shortSize: '0',
      })
      expect(closed.error).toBe(
        `left at the venue: the long leg's ${ta.longSize} BTC (USD ${(Number(ta.longSize) * 30_000).toFixed(2)}) is below the smallest order hl takes and would not reduce the account's net; it stays in the BTC position there, held by this task (dn positions: left by task)`,
      )
      // nothing went to hl: its net and fills are as they were
      expect(net('hl', 'BTC')).toBe(shortNet)
      expect(bed.venues.exchanges.hl.fills(o.owner, 0)).toHaveLength(sent)
      // the part left is the closed task's in the ledger: a task opened
      // short on that net reads none of it as its own leg gone missing
      const m = { owner: o.owner, venue: 'hl' as const, market: 'BTC' }
      const holders = await storeHolders(bed.svc)(m)
      expect(holders.find((h) => h.leftAtVenue)).toMatchObject({
        taskId: a,
        leg: 'long',
        position: ta.longSize,
      })
      expect(readLedger(holders, net('hl', 'BTC')).external).toBe('0')
      const tb = await openRunning({
        shortVenue: 'hl',
        shortMarket: 'BTC',
        sizeUsd: 300,
      })
      const b = tb.taskId
      for (let i = 0; i < 3; i++) {
        await bed.advance(CYCLE_MS)
        expect(await get(b)).toMatchObject({
          status: 'running',
          shortSize: tb.shortSize,
          error: null,
        })
      }
      await bed.taskAction(o, b, 'close')
      await bed.drain()
      expect(await get(b)).toMatchObject({ status: 'closed', error: null })
      // what is left at hl: the direct short and the closed task's part
      expect(Number(net('hl', 'BTC'))).toBeCloseTo(-Number(ta.longSize), 9)
    })

    /** a task created and run until it opened */
    async function openRunning(body: Record<string, unknown>) {
      const id = await bed.createTask(o, body)
      await bed.drain()
      const t = await get(id)
      expect(t.status, JSON.stringify(t)).toBe('running')
      return t
    }

    /** a direct market short of `sizeBase`, through the API, run */
    async function sellDirect(
      venue: 'aster' | 'hl',
      market: string,
      sizeBase: number,
    ) {
      const res = await call(bed.svc, 'POST', ORDERS, {
        key: o.apiKey,
        body: { venue, market, side: 'short', orderType: 'market', sizeBase },
      })
      expect(res.status, res.text).toBe(202)
      await bed.drain()
    }

    /** sells `size` of aster BTCUSDT for the owner straight at the venue */
    async function sellOnVenue(size: string) {
      const mark = (await bed.venues.marketData.quote('aster', 'BTCUSDT')).mark
      bed.venues.exchanges.aster.place(o.owner, {
        market: 'BTCUSDT',
        side: 'short',
        size,
        price: String(Math.floor(Number(mark) * 0.9)),
        timeInForce: 'ioc',
        reduceOnly: false,
        clientOrderId: `0x${Date.now().toString(16).padStart(32, '0')}`,
      })
    }

    test('a position flattened at the venue by a trade dn did not send closes only the task whose leg it took, with the change named', async () => {
      const a = await bed.createTask(o)
      // shares lighter BTC with A, on the same side
      const b = await bed.createTask(o, { longVenue: 'hl', longMarket: 'BTC' })
      await bed.drain()
      // one opens while the other waits for the lighter BTC account lock
      for (let i = 0; i < 10; i++) {
        if (
          (await get(a)).status !== 'pending' &&
          (await get(b)).status !== 'pending'
        )
          break
        await bed.advance(1_000)
      }
      const [ta, tb] = [await get(a), await get(b)]
      expect([ta.status, tb.status], JSON.stringify([ta, tb])).toEqual([
        'running',
        'running',
      ])
      expect(Number(net('aster', 'BTCUSDT'))).toBeCloseTo(
        Number(ta.longSize),
        9,
      )
      // the worker's events as the deployment's metrics count them
      const metrics = createDnMetrics()
      ;(bed.worker as { observer?: WorkerObserver }).observer = metrics
      await sellOnVenue(ta.longSize)
      expect(Number(net('aster', 'BTCUSDT'))).toBe(0)
      await bed.advance(CYCLE_MS)
      const counted = await metrics.registry
        .getSingleMetric('dn_external_changes_total')
        ?.get()
      expect(counted?.values).toEqual([
        { labels: { venue: 'aster' }, value: 1 },
      ])
      const closed = await get(a)
      expect(closed, JSON.stringify(closed)).toMatchObject({
        status: 'closed',
        closeReason: 'leg_liquidated',
      })
      expect(closed.error).toBe(
        `external change: aster BTCUSDT holds 0 where dn's orders account for ${ta.longSize} (-${ta.longSize} unexplained); the long leg holds 0 of its ${ta.longSize}`,
      )
      // B keeps its legs; A's lighter short was bought back from the net
      for (let i = 0; i < 2; i++) {
        await bed.advance(CYCLE_MS)
        expect(await get(b)).toMatchObject({
          status: 'running',
          longSize: tb.longSize,
          shortSize: tb.shortSize,
          error: null,
        })
      }
      expect(Number(net('hl', 'BTC'))).toBeCloseTo(Number(tb.longSize), 9)
      await bed.taskAction(o, b, 'close')
      await bed.drain()
      expect((await get(b)).status).toBe('closed')
    })

    test('a close started when the venue is already flat completes at once, with a note', async () => {
      const a = await bed.createTask(o)
      await bed.drain()
      const ta = await get(a)
      expect(ta.status).toBe('running')
      await sellOnVenue(ta.longSize)
      expect((await bed.taskAction(o, a, 'close')).status).toBe(202)
      await bed.drain()
      const closed = await get(a)
      expect(closed, JSON.stringify(closed)).toMatchObject({
        status: 'closed',
        closeReason: 'requested',
        longSize: '0',
        shortSize: '0',
      })
      expect(closed.error).toMatch(
        /^external change: aster BTCUSDT holds 0 where dn's orders account for .*; the long leg holds 0 of its /,
      )
      // only the leg still there was traded: nothing was sent to aster
      expect(Number(net('aster', 'BTCUSDT'))).toBe(0)
    })
  },
)
