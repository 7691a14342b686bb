import { type MarketQuote, RequestBudgetError, type VenueId } from '@dn/core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { dialects, type TestOwner } from './support/testService.js'
import { startWorkerBed, type WorkerBed } from './support/workerHarness.js'

const HOUR = 3_600_000

/**
 * The Task response's additive fields through the API, with the worker
 * and the simulated venues: why a pending task waits (`pendingReason`),
 * its PnL and fees against the fills the venues report, `fundingApyNow`.
 */
describe.each(dialects())('additive task fields over HTTP (%s)', (dialect) => {
  let bed: WorkerBed
  let o: TestOwner
  beforeAll(async () => {
    bed = await startWorkerBed({ dialect, seed: 11 })
    o = await bed.owner()
  })
  afterAll(() => bed?.close())

  const get = (id: string) => bed.getTask(o, id)
  const cancel = (id: string) => bed.taskAction(o, id, 'cancel')
  /** Replaces a venue's quote for the test's length. */
  const withQuote = async (
    venue: VenueId,
    quote: (q: MarketQuote) => MarketQuote | Promise<MarketQuote>,
    fn: () => Promise<void>,
  ) => {
    const a = bed.venues.adapters[venue]
    const real = a.quote
    a.quote = async (s) => quote(await real.call(a, s))
    try {
      await fn()
    } finally {
      a.quote = real
    }
  }

  test('funding under minFundingApy: pending with the APY and the minimum, in percent', async () => {
    const id = await bed.createTask(o, { minFundingApy: 999_999 })
    await bed.drain()
    const t = await get(id)
    expect(t.status).toBe('pending')
    const [long, short] = await Promise.all([
      bed.venues.adapters.aster.quote('BTCUSDT'),
      bed.venues.adapters.lighter.quote('BTC'),
    ])
    const apy = (
      (Number(short.fundingRateHourly) - Number(long.fundingRateHourly)) *
      876_000
    ).toFixed(2)
    expect(t.pendingReason).toEqual({
      code: 'funding_below_min',
      message: `funding APY ${Number(apy)}% < minFundingApy 999999%`,
      fundingApy: String(Number(apy)),
      minFundingApy: '999999',
    })
    expect(t.fundingApyNow).toBe(String(Number(apy)))
    await cancel(id)
    expect((await get(id)).pendingReason).toBeNull()
  })

  test('spread over maxSpreadBps: pending with the spread and the maximum', async () => {
    // the long leg's mark 12 bps over the short leg's
    const lighterMark = Number(
      (await bed.venues.adapters.lighter.quote('BTC')).mark,
    )
    await withQuote(
      'aster',
      (q) => ({ ...q, mark: String(lighterMark * 1.0012) }),
      async () => {
        const id = await bed.createTask(o, { maxSpreadBps: 1 })
        await bed.drain()
        const t = await get(id)
        expect(t.status).toBe('pending')
        expect(t.pendingReason).toMatchObject({
          code: 'spread_above_max',
          maxSpreadBps: '1',
        })
        expect(Number(t.pendingReason.spreadBps)).toBeCloseTo(12, 1)
        expect(t.pendingReason.message).toBe(
          `spread ${t.pendingReason.spreadBps} bps > maxSpreadBps 1`,
        )
        await cancel(id)
      },
    )
  })

  test('the venue budget holds a read back: pending, waiting for that venue', async () => {
    const id = await bed.createTask(o)
    await withQuote(
      'lighter',
      () => {
        throw new RequestBudgetError(
          'lighter: not sent, its routine request budget is spent; retrying later',
        )
      },
      async () => {
        await bed.drain()
        const t = await get(id)
        expect(t.status).toBe('pending')
        expect(t.pendingReason).toEqual({
          code: 'venue_budget',
          message:
            'waiting for lighter request budget: lighter: not sent, its routine request budget is spent; retrying later',
          venue: 'lighter',
        })
        await cancel(id)
      },
    )
  })

  test('a venue down: pending, naming it; opened once it is back, the reason gone', async () => {
    const id = await bed.createTask(o)
    bed.venues.exchanges.lighter.setFaults({ outage: true })
    await bed.drain()
    bed.venues.exchanges.lighter.setFaults({ outage: false })
    const t = await get(id)
    expect(t.status).toBe('pending')
    expect(t.pendingReason).toEqual({
      code: 'venue_unavailable',
      message: 'lighter unavailable: lighter (simulated) is unavailable',
      venue: 'lighter',
    })
    await bed.advance(3_000)
    const running = await get(id)
    expect(running.status).toBe('running')
    expect(running.pendingReason).toBeNull()
    await bed.taskAction(o, id, 'close')
    await bed.drain()
    expect((await get(id)).status).toBe('closed')
  })

  test("a closed task's PnL and fees match the fills the venues report", async () => {
    const owner = await bed.owner()
    // the aster leg carries a builder fee, doubled beside a Lighter leg
    const aster = bed.venues.adapters.aster
    aster.builderFeeRate = (paired) => (paired ? '0.0003' : '0.00015')
    try {
      const since = bed.clock.now()
      const id = await bed.createTask(owner, { autoClose: false })
      await bed.drain()
      const running = await bed.getTask(owner, id)
      expect(running.status).toBe('running')
      expect(running.fundingApyNow).toMatch(/^-?\d+(\.\d{1,2})?$/)
      // unrealized: what is held against the marks shown
      const held = Number(running.longSize)
      expect(
        Number(running.pnl.long.unrealizedUsd) -
          (Number(running.longPrice) - Number(running.longEntry)) * held,
      ).toBeCloseTo(0, 5)
      // time passes: funding is paid and the marks move
      await bed.advance(HOUR + 1_000)
      await bed.advance(1_000)
      await bed.taskAction(owner, id, 'close')
      await bed.drain()
      const closed = await bed.getTask(owner, id)
      expect(closed.status).toBe('closed')

      // each leg from the venue's own fills of this owner
      const legOf = (
        venue: 'aster' | 'lighter',
        market: string,
        dir: 1 | -1,
      ) => {
        const fills = bed.venues.exchanges[venue]
          .fills(owner.owner, since)
          .filter((f) => f.market === market)
        const sum = (side: string) => {
          const mine = fills.filter((f) => f.side === side)
          const base = mine.reduce((s, f) => s + Number(f.size), 0)
          const notional = mine.reduce(
            (s, f) => s + Number(f.size) * Number(f.price),
            0,
          )
          return { base, notional, price: notional / base }
        }
        const open = sum(dir === 1 ? 'long' : 'short')
        const close = sum(dir === 1 ? 'short' : 'long')
        expect(close.base).toBeCloseTo(open.base, 10)
        return {
          entry: open.price,
          exit: close.price,
          realized: (close.price - open.price) * close.base * dir,
          notional: open.notional + close.notional,
          // the trading fees the venue charged these fills
          fees: fills.reduce((s, f) => s + Number(f.fee), 0),
        }
      }
      const long = legOf('aster', 'BTCUSDT', 1)
      const short = legOf('lighter', 'BTC', -1)
      const builderFees = long.notional * 0.0003
      const p = closed.pnl
      expect(Number(p.long.entryPrice)).toBeCloseTo(long.entry, 6)
      expect(Number(p.long.exitPrice)).toBeCloseTo(long.exit, 6)
      expect(Number(p.short.entryPrice)).toBeCloseTo(short.entry, 6)
      expect(Number(p.short.exitPrice)).toBeCloseTo(short.exit, 6)
      expect(Number(p.long.realizedUsd)).toBeCloseTo(long.realized, 5)
      expect(Number(p.short.realizedUsd)).toBeCloseTo(short.realized, 5)
      expect(Number(p.long.builderFeesUsd)).toBeCloseTo(builderFees, 5)
      expect(p.short.builderFeesUsd).toBe('0')
      // venue fees as each venue charged them: Aster's taker rate, and
      // none on a standard Lighter account
      expect(long.fees).toBeGreaterThan(0)
      expect(Number(p.long.feesUsd)).toBeCloseTo(long.fees, 6)
      expect(short.fees).toBe(0)
      expect(p.short.feesUsd).toBe('0')
      const fees = builderFees + long.fees + short.fees
      expect(p.long.unrealizedUsd).toBe('0')
      expect(p.short.unrealizedUsd).toBe('0')
      const funding = Number(closed.fundingUsd)
      expect(funding).not.toBe(0)
      expect(p.fundingUsd).toBe(closed.fundingUsd)
      expect(Number(p.feesUsd)).toBeCloseTo(fees, 5)
      expect(Number(p.totalUsd)).toBeCloseTo(
        long.realized + short.realized + funding - fees,
        5,
      )
      // the contract's fields keep their shape; ended: no APY now
      expect(closed.longEntry).toEqual(expect.any(String))
      expect(closed.fundingApyNow).toBeNull()
      expect(closed.pendingReason).toBeNull()
    } finally {
      delete aster.builderFeeRate
    }
  })
})
