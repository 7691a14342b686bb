import {
  CLOSE_REFUSALS_MAX,
  FUNDING_READ_LAG_MS,
  NEVER_PLACED_AFTER_MS,
  SEND_WINDOW_MS,
  UncertainSubmissionError,
  VenueUnavailableError,
} from '@dn/core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { dialects, type TestOwner } from './support/testService.js'
import { startWorkerBed, type WorkerBed } from './support/workerHarness.js'

const HOUR = 3_600_000

describe.each(dialects())(
  'paired tasks executed by the worker (%s)',
  (dialect) => {
    let bed: WorkerBed
    let o: TestOwner
    beforeAll(async () => {
      bed = await startWorkerBed({ dialect, fundingGraceMs: 60_000 })
      o = await bed.owner()
    })
    afterAll(() => bed?.close())

    const create = (body: Record<string, unknown> = {}) =>
      bed.createTask(o, body)
    const get = (id: string) => bed.getTask(o, id)
    const post = (id: string, action: string, body: unknown = {}) =>
      bed.taskAction(o, id, action, body)

    test('pending → running with every field, funding accrues, close → closed', async () => {
      // what each leg asks its venue for: the aster leg is paired with a
      // Lighter venue (builder fees double), the lighter leg is not
      const paired: Record<string, boolean[]> = { aster: [], lighter: [] }
      for (const v of ['aster', 'lighter'] as const) {
        const a = bed.venues.adapters[v]
        const place = a.place.bind(a)
        a.place = (c, r) => {
          paired[v]?.push(r.pairedWithLighter === true)
          return place(c, r)
        }
      }
      const id = await create()
      await bed.drain()
      const running = await get(id)
      expect(running.status).toBe('running')
      expect(paired).toEqual({ aster: [true], lighter: [false] })
      for (const f of [
        'longSize',
        'shortSize',
        'longEntry',
        'shortEntry',
        'longPrice',
        'shortPrice',
        'longLeverage',
        'shortLeverage',
        'longMarginMode',
        'shortMarginMode',
      ]) {
        expect(running[f], f).not.toBeNull()
      }
      expect(running.longSize).toBe(running.shortSize)
      expect(
        Number(running.longSize) * Number(running.longPrice),
      ).toBeLessThanOrEqual(2_000 * 1.02)
      expect(running).toMatchObject({
        fundingUsd: '0',
        closeReason: null,
        error: null,
        closeRequestedAt: null,
      })
      // past the next settlement and the lag before it is read: the test
      // starts at the real time, anywhere in the hour
      const since = new Date(bed.clock.now()).toISOString()
      await bed.advance(HOUR - (bed.clock.now() % HOUR) + 1_000)
      await bed.advance(FUNDING_READ_LAG_MS)
      const funded = await get(id)
      // what the two venues paid and charged this owner, to the cent: each
      // leg is this owner's only position on its market
      const paid = [
        ['aster', 'BTCUSDT'],
        ['lighter', 'BTC'],
      ] as const
      const payments = paid.map(([v, m]) =>
        bed.venues.exchanges[v].funding(o.owner, m, since),
      )
      expect(payments.map((p) => p.length)).toEqual([1, 1])
      const expected = payments
        .flat()
        .reduce((s, p) => s + Number(p.amountUsd), 0)
      expect(expected).not.toBe(0)
      expect(Number(funded.fundingUsd)).toBeCloseTo(expected, 6)
      const close = await post(id, 'close')
      expect(close.body).toEqual({ taskId: id, status: 'close_queued' })
      expect((await get(id)).closeRequestedAt).not.toBeNull()
      await bed.drain()
      const closed = await get(id)
      expect(closed).toMatchObject({
        status: 'closed',
        closeReason: 'requested',
        longSize: '0',
        shortSize: '0',
      })
      const positions = await bed.venues.adapters.aster.positions({
        owner: o.owner,
        venue: 'aster',
        accountIndex: null,
        credentialRef: null,
        secret: null,
      })
      expect(positions.filter((p) => Number(p.size) !== 0)).toEqual([])
    })

    test('resize moves both legs to their targets', async () => {
      const id = await create({
        longVenue: 'aster',
        longMarket: 'ETHUSDT',
        shortVenue: 'lighter',
        shortMarket: 'ETH',
        sizeUsd: 1_000,
      })
      await bed.drain()
      const before = await get(id)
      expect(before.status).toBe('running')
      const res = await post(id, 'resize', {
        longTargetBase: 0.5,
        shortTargetBase: 0.4,
      })
      expect(res.body).toEqual({ taskId: id, status: 'resizing' })
      expect((await get(id)).status).toBe('resizing')
      await bed.drain()
      expect(await get(id)).toMatchObject({
        status: 'running',
        longSize: '0.5',
        shortSize: '0.4',
      })
      await post(id, 'close')
      await bed.drain()
      expect((await get(id)).status).toBe('closed')
    })

    test('auto-close: liquidation protection', async () => {
      // isolated at 20x: the liquidation price sits about 5 % from entry
      bed.venues.exchanges.aster.setLeverage(o.owner, 'BTCUSDT', 20, 'isolated')
      const id = await create({ liqProtectionPct: 10 })
      await bed.drain()
      expect(await get(id)).toMatchObject({
        status: 'closed',
        closeReason: 'liquidation_protection',
        longMarginMode: 'isolated',
        longLeverage: '20',
      })
      bed.venues.exchanges.aster.setLeverage(o.owner, 'BTCUSDT', 10, 'cross')
    })

    test('auto-close: size mismatch', async () => {
      const id = await create({ sizeMismatchPct: 1 })
      await bed.drain()
      expect((await get(id)).status).toBe('running')
      const t = await bed.svc.store.tasks.get(id)
      await bed.svc.store.tasks.update(id, {
        shortSize: String(Number(t?.shortSize) * 0.9).slice(0, 10),
        updatedAt: new Date(bed.clock.now()).toISOString(),
      })
      await bed.advance(1_500)
      expect(await get(id)).toMatchObject({
        status: 'closed',
        closeReason: 'size_mismatch',
      })
    })

    test('auto-close: funding APY below the minimum for the grace period', async () => {
      const id = await create({ minFundingApy: 1 })
      await bed.drain()
      expect((await get(id)).status).toBe('running')
      await bed.svc.store.tasks.update(id, {
        minFundingApy: '999999',
        updatedAt: new Date(bed.clock.now()).toISOString(),
      })
      await bed.advance(1_500)
      expect((await get(id)).status).toBe('running')
      await bed.advance(61_000)
      expect(await get(id)).toMatchObject({
        status: 'closed',
        closeReason: 'funding_below_min',
      })
    })

    test('entry rule: a pending task waits while funding is under minFundingApy', async () => {
      const id = await create({ minFundingApy: 999_999 })
      await bed.drain()
      expect((await get(id)).status).toBe('pending')
      expect((await post(id, 'cancel')).body).toEqual({
        taskId: id,
        status: 'cancelled',
      })
    })

    test('a cancel racing the opening: either it lands and nothing is sent, or it is refused and the task opens', async () => {
      const tasks = bed.svc.store.tasks
      const update = tasks.update
      const placed = () =>
        [...bed.venues.exchanges.aster.stats().byClientOrderId.keys()].length +
        [...bed.venues.exchanges.lighter.stats().byClientOrderId.keys()].length
      // the API's cancel lands right before, or right after, the worker's
      // write of its opening orders (the API writes in its own transaction,
      // the worker through the store itself)
      const race = async (when: 'before' | 'after') => {
        const id = await create()
        let answer: Awaited<ReturnType<typeof post>> | undefined
        tasks.update = async (taskId, patch, guard) => {
          const opening =
            taskId === id && patch.engineState?.op?.kind === 'open' && !answer
          if (opening && when === 'before') answer = await post(id, 'cancel')
          const row = await update.call(tasks, taskId, patch, guard)
          if (opening && when === 'after') answer = await post(id, 'cancel')
          return row
        }
        const before = placed()
        try {
          await bed.drain()
        } finally {
          tasks.update = update
        }
        return { id, answer, sent: placed() - before }
      }

      const early = await race('before')
      expect(early.answer?.status, early.answer?.text).toBe(202)
      expect(early.sent).toBe(0)
      expect((await get(early.id)).status).toBe('cancelled')

      const late = await race('after')
      expect(late.answer?.status).toBe(409)
      expect(late.answer?.body).toMatchObject({
        code: 'task_not_cancellable',
        error: expect.stringMatching(/opening.*close it once it is running/),
      })
      expect(late.sent).toBe(2)
      const opened = await get(late.id)
      expect(opened.status).toBe('running')
      expect(opened.longSize).toBe(opened.shortSize)
      await post(late.id, 'close')
      await bed.drain()
      expect((await get(late.id)).status).toBe('closed')
    })

    test('a close the venue refuses is tried again less and less often, not every second (issue 32)', async () => {
      const id = await create()
      await bed.drain()
      expect((await get(id)).status).toBe('running')
      const lighter = bed.venues.adapters.lighter
      const place = lighter.place
      let sends = 0
      lighter.place = (c, r) => {
        sends++
        return place.call(lighter, c, r)
      }
      bed.venues.exchanges.lighter.setFaults({ rejectRate: 1 })
      try {
        await post(id, 'close')
        await bed.drain()
        expect(sends).toBe(1)
        expect((await get(id)).error).toMatch(
          /close incomplete \(short leg: .*\); refused 1 time, tried again in 1 s$/,
        )
        // 1 s, then 2 s, then 4 s between the refused closes
        const sendsAfter = async (ms: number) => {
          await bed.advance(ms)
          return sends
        }
        expect(await sendsAfter(1_000)).toBe(2)
        expect(await sendsAfter(1_000)).toBe(2)
        expect(await sendsAfter(1_000)).toBe(3)
        expect((await get(id)).error).toMatch(
          /refused 3 times in a row, tried again in 4 s$/,
        )
        expect(await sendsAfter(3_000)).toBe(3)
        bed.venues.exchanges.lighter.setFaults({ rejectRate: 0 })
        expect(await sendsAfter(1_000)).toBe(4)
        const closed = await get(id)
        expect(closed).toMatchObject({ status: 'closed', error: null })
      } finally {
        lighter.place = place
        bed.venues.exchanges.lighter.setFaults({ rejectRate: 0 })
      }
    })

    for (const venue of ['lighter', 'aster', 'hl'] as const) {
      test(`a close ${venue} refuses ${CLOSE_REFUSALS_MAX} times in a row stops with its words, and POST close tries again (issue 32)`, async () => {
        const id = await create(
          venue === 'hl' ? { longVenue: 'hl', longMarket: 'BTC' } : {},
        )
        await bed.drain()
        expect((await get(id)).status).toBe('running')
        const adapter = bed.venues.adapters[venue]
        const place = adapter.place
        let sends = 0
        adapter.place = (c, r) => {
          sends++
          return place.call(adapter, c, r)
        }
        bed.venues.exchanges[venue].setFaults({ rejectRate: 1 })
        try {
          await post(id, 'close')
          // 1 + 2 + 4 + 8 s between the refused closes, then none
          for (let i = 0; i < 12; i++) await bed.advance(10_000)
          expect(sends).toBe(CLOSE_REFUSALS_MAX)
          const stopped = await get(id)
          expect(stopped.status).toBe('closing')
          expect(stopped.error).toMatch(
            new RegExp(
              `^close stopped: the venue refused it ${CLOSE_REFUSALS_MAX} times in a row \\((long|short) leg: .+\\); what is still open stays open at the venue`,
            ),
          )
          // not sent again for hours
          for (let i = 0; i < 10; i++) await bed.advance(60_000)
          expect(sends).toBe(CLOSE_REFUSALS_MAX)
          // the cause fixed, the owner asks again: it closes
          bed.venues.exchanges[venue].setFaults({ rejectRate: 0 })
          expect((await post(id, 'close')).status).toBe(202)
          await bed.drain()
          expect(await get(id)).toMatchObject({ status: 'closed', error: null })
          expect(sends).toBe(CLOSE_REFUSALS_MAX + 1)
        } finally {
          adapter.place = place
          bed.venues.exchanges[venue].setFaults({ rejectRate: 0 })
        }
      })
    }

    test('a failed leg is unwound and the task fails with the reason', async () => {
      bed.venues.exchanges.lighter.setFaults({ rejectRate: 1 })
      const id = await create()
      await bed.drain()
      bed.venues.exchanges.lighter.setFaults({ rejectRate: 0 })
      const failed = await get(id)
      expect(failed.status).toBe('failed')
      expect(failed.error).toMatch(/short leg/)
      expect(failed.error).toMatch(/unwound/)
      expect(failed.longSize).toBe('0')
    })

    test('an unwind held back by an outage is unwound when tried again, never opened anew (issue 32)', async () => {
      bed.venues.exchanges.lighter.setFaults({ rejectRate: 1 })
      const aster = bed.venues.adapters.aster
      const positions = aster.positions
      const place = aster.place
      let fail = 1
      let sent = 0
      // the unwind's read of the filled leg's venue position fails once
      aster.positions = (...args) => {
        if (fail-- > 0)
          return Promise.reject(new VenueUnavailableError('aster down'))
        return positions.apply(aster, args)
      }
      aster.place = (...args) => {
        sent++
        return place.apply(aster, args)
      }
      try {
        const id = await create()
        await bed.drain()
        bed.venues.exchanges.lighter.setFaults({ rejectRate: 0 })
        // the long leg is filled and waits for its unwind: not cancellable
        const held = await get(id)
        expect(held.status).toBe('pending')
        expect(Number(held.longSize)).toBeGreaterThan(0)
        const cancel = await post(id, 'cancel')
        expect(cancel.status).toBe(409)
        expect(cancel.body).toMatchObject({
          code: 'task_not_cancellable',
          error: expect.stringMatching(/^task is unwinding: /),
        })
        for (let i = 0; i < 5; i++) await bed.advance(2_000)
        const t = await get(id)
        expect(t.status, JSON.stringify(t)).toBe('failed')
        // why the opening failed, not the outage the unwind met
        expect(t.error).toMatch(
          /^open failed: short leg: .+; the filled leg was unwound$/,
        )
        expect(t.longSize).toBe('0')
        // the long leg once, its unwind once: no second opening
        expect(sent).toBe(2)
      } finally {
        aster.positions = positions
        aster.place = place
        bed.venues.exchanges.lighter.setFaults({ rejectRate: 0 })
      }
    })

    test('venue outage while opening: retried and reported, then opened', async () => {
      const id = await create()
      bed.venues.exchanges.lighter.setFaults({ outage: true })
      await bed.drain()
      const waiting = await get(id)
      expect(waiting.status).toBe('pending')
      expect(waiting.error).toMatch(/unreachable/)
      bed.venues.exchanges.lighter.setFaults({ outage: false })
      await bed.advance(3_000)
      expect(await get(id)).toMatchObject({ status: 'running', error: null })
      await post(id, 'close')
      await bed.drain()
      expect((await get(id)).status).toBe('closed')
    })

    test('an uncertain leg is looked up by client order id, never doubled', async () => {
      bed.venues.exchanges.aster.setFaults({ timeoutAfterAcceptRate: 1 })
      const id = await create()
      await bed.drain(1)
      bed.venues.exchanges.aster.setFaults({ timeoutAfterAcceptRate: 0 })
      await bed.advance(3_000)
      const t = await get(id)
      expect(t.status).toBe('running')
      expect(t.longSize).toBe(t.shortSize)
      for (const [, n] of bed.venues.exchanges.aster.stats().byClientOrderId)
        expect(n).toBe(1)
      await post(id, 'close')
      await bed.drain()
      expect((await get(id)).status).toBe('closed')
    })

    test('an uncertain leg the venue shows late is waited for, not sent again', async () => {
      const lighter = bed.venues.adapters.lighter
      const { place, order } = lighter
      let places = 0
      let visibleFrom = Number.POSITIVE_INFINITY
      lighter.place = async (c, r) => {
        places++
        await place.call(lighter, c, r)
        // accepted, the answer lost, and the venue lists it only later
        visibleFrom = bed.clock.now() + SEND_WINDOW_MS
        throw new UncertainSubmissionError('answer lost')
      }
      lighter.order = async (c, m, id) =>
        bed.clock.now() < visibleFrom ? null : order.call(lighter, c, m, id)
      try {
        const id = await create()
        await bed.drain()
        // looked up every 5 s while the venue does not list it yet
        for (let i = 0; i < Math.floor((SEND_WINDOW_MS - 1) / 5_000); i++)
          await bed.advance(5_000)
        expect(places).toBe(1)
        expect((await get(id)).status).toBe('pending')
        await bed.advance(SEND_WINDOW_MS)
        const t = await get(id)
        expect(t.status).toBe('running')
        expect(places).toBe(1)
        expect(t.longSize).toBe(t.shortSize)
        await post(id, 'close')
        await bed.drain()
      } finally {
        lighter.place = place
        lighter.order = order
      }
    })

    test('an uncertain leg that never reached the venue is sent again once its window closed, once', async () => {
      const lighter = bed.venues.adapters.lighter
      const { place } = lighter
      const sent: string[] = []
      lighter.place = async (c, r) => {
        sent.push(r.clientOrderId)
        // the first request dies on the way; nothing reached the venue
        if (sent.length === 1) throw new UncertainSubmissionError('timeout')
        return place.call(lighter, c, r)
      }
      try {
        const id = await create()
        await bed.drain()
        await bed.advance(NEVER_PLACED_AFTER_MS - 10_000)
        expect(sent).toHaveLength(1)
        expect((await get(id)).status).toBe('pending')
        await bed.advance(20_000)
        const t = await get(id)
        expect(t.status, t.error).toBe('running')
        // the same client order id, sent twice, placed once
        expect(sent).toHaveLength(2)
        expect(sent[1]).toBe(sent[0])
        expect(
          bed.venues.exchanges.lighter
            .stats()
            .byClientOrderId.get(sent[0] ?? ''),
        ).toBe(1)
        await post(id, 'close')
        await bed.drain()
      } finally {
        lighter.place = place
      }
    })
  },
)
