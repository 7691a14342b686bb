import {
  closeStopped,
  ledgerHolders,
  readLedger,
  type VenueAdapter,
  type VenueId,
} from '@dn/core'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { call, type TestOwner } from './support/testService.js'
import { startWorkerBed, type WorkerBed } from './support/workerHarness.js'

const BTC = { hl: 'BTC', aster: 'BTCUSDT', lighter: 'BTC' } as const
type Venue = keyof typeof BTC
const VENUES = Object.keys(BTC) as Venue[]
const ALL_VENUES: VenueId[] = ['hl', 'aster', 'lighter', 'lighter-mainnet']

/** One thing a user (or the world) does to an owner's shared markets. */
type Action =
  | { kind: 'open'; long: Venue; short: Venue; sizeUsd: number }
  | { kind: 'resize'; task: number; factor: number }
  | { kind: 'close'; task: number }
  | {
      kind: 'order'
      venue: Venue
      side: 'long' | 'short'
      sizeUsd: number
      reduce: boolean
    }
  | { kind: 'refuse'; venue: Venue }
  | { kind: 'external'; venue: Venue; side: 'long' | 'short'; sizeUsd: number }
  | { kind: 'wait'; ms: number }

const venue = fc.constantFrom(...VENUES)
const action = (external: boolean): fc.Arbitrary<Action> =>
  fc.oneof(
    {
      weight: 3,
      arbitrary: fc
        .tuple(venue, venue, fc.integer({ min: 100, max: 3_000 }))
        .filter(([l, s]) => l !== s)
        .map(([long, short, sizeUsd]) => ({
          kind: 'open' as const,
          long,
          short,
          sizeUsd,
        })),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('resize' as const),
        task: fc.nat(5),
        factor: fc.constantFrom(0.5, 0.8, 1.5),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('close' as const),
        task: fc.nat(5),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('order' as const),
        venue,
        side: fc.constantFrom('long' as const, 'short' as const),
        sizeUsd: fc.integer({ min: 20, max: 2_000 }),
        reduce: fc.boolean(),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({ kind: fc.constant('refuse' as const), venue }),
    },
    ...(external
      ? [
          {
            weight: 1,
            arbitrary: fc.record({
              kind: fc.constant('external' as const),
              venue,
              side: fc.constantFrom('long' as const, 'short' as const),
              sizeUsd: fc.integer({ min: 20, max: 2_000 }),
            }),
          },
        ]
      : []),
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('wait' as const),
        ms: fc.constantFrom(1_000, 11_000),
      }),
    },
  )

/**
 * The position ledger as a property (issue 32), against the in-memory
 * netting venues of the worker bed: random interleavings of one owner's
 * task opens, resizes and closes and direct orders on shared BTC markets,
 * with partial fills and refusals (and, in the second property, trades
 * made at the venue outside dn). At rest after every step, each account
 * market's ledger explains the venue's net; dn never sends an order the
 * venue refuses as reduce-only; in the end each task holds nothing and the
 * venue holds what the direct orders filled.
 */
describe('the position ledger, as a property over shared markets', () => {
  let bed: WorkerBed
  /** reduce-only refusals of orders dn sent for its tasks */
  const refusedReduceOnly: string[] = []
  /** tasks that reached running, to show the runs shared markets */
  const ran = new Set<string>()
  /** client order ids of the direct orders (the user's own choices) */
  const direct = new Set<string>()

  /**
   * owners made before the bed's clock moves (their wallet signatures
   * carry real expiry times); a run takes the next, reused once all were
   */
  const owners: TestOwner[] = []
  let next = 0
  const owner = () => owners[next++ % owners.length] as TestOwner

  beforeAll(async () => {
    bed = await startWorkerBed({ dialect: 'sqlite' })
    for (let i = 0; i < 40; i++) owners.push(await bed.owner())
    for (const v of VENUES) {
      const a = bed.venues.adapters[v] as VenueAdapter
      const place = a.place.bind(a)
      a.place = async (cred, r) => {
        const refused = (reason: string | null | undefined) => {
          if (
            r.reduceOnly &&
            /reduce.?only/i.test(reason ?? '') &&
            !direct.has(r.clientOrderId)
          )
            refusedReduceOnly.push(`${v} ${r.side} ${r.size}: ${reason}`)
        }
        try {
          const o = await place(cred, r)
          refused(o.reason)
          return o
        } catch (err) {
          refused(err instanceof Error ? err.message : String(err))
          throw err
        }
      }
    }
  })
  afterAll(() => bed?.close())

  const mark = async (v: Venue) =>
    Number((await bed.venues.marketData.quote(v, BTC[v])).mark)
  const net = (o: TestOwner, v: Venue) =>
    bed.venues.exchanges[v].positions(o.owner).find((p) => p.market === BTC[v])
      ?.size ?? '0'

  /** Runs the worker until nothing is in flight (bounded). */
  async function settle(o: TestOwner) {
    for (let i = 0; i < 30; i++) {
      await bed.advance(1_000)
      const [tasks, orders] = await Promise.all([
        bed.svc.store.tasks.list({
          owner: o.owner,
          venues: ALL_VENUES,
          limit: 100,
        }),
        bed.svc.store.orders.list({
          owner: o.owner,
          venues: ALL_VENUES,
          limit: 100,
        }),
      ])
      // a task waiting its turn on a shared leg (withLegLocks) is between
      // operations yet still closing or resizing: busy all the same
      const busy =
        tasks.some(
          (t) =>
            (t.engineState?.op ?? null) !== null ||
            (['resizing', 'closing'].includes(t.status) &&
              !closeStopped(t.engineState)),
        ) ||
        orders.some((x) =>
          ['pending', 'submitting', 'unknown'].includes(x.status),
        )
      if (!busy) return
    }
  }

  /** Each account market's ledger against the venue's net. */
  async function ledgers(o: TestOwner) {
    const out: { venue: Venue; net: string; sum: string; external: string }[] =
      []
    for (const v of VENUES) {
      const m = { owner: o.owner, venue: v as VenueId, market: BTC[v] }
      const [tasks, orders] = await Promise.all([
        bed.svc.store.tasks.listOnMarket(m),
        bed.svc.store.orders.listOnMarket(m),
      ])
      const reading = readLedger(ledgerHolders(m, tasks, orders), net(o, v))
      out.push({
        venue: v,
        net: reading.venueNet,
        sum: reading.sum,
        external: reading.external,
      })
    }
    return out
  }

  async function perform(o: TestOwner, tasks: string[], a: Action) {
    const api = (method: 'POST', path: string, body: unknown) =>
      call(bed.svc, method, path, { key: o.apiKey, body })
    switch (a.kind) {
      case 'open': {
        const res = await api('POST', '/v1/delta-neutral/tasks', {
          longVenue: a.long,
          longMarket: BTC[a.long],
          shortVenue: a.short,
          shortMarket: BTC[a.short],
          sizeUsd: a.sizeUsd,
          autoClose: false,
        })
        if (res.status === 202) tasks.push(res.body.taskId)
        break
      }
      case 'resize': {
        const id = tasks[a.task % Math.max(1, tasks.length)]
        if (!id) break
        const t = await bed.getTask(o, id)
        if (t.status !== 'running') break
        await api('POST', `/v1/delta-neutral/tasks/${id}/resize`, {
          longTargetBase: Number((Number(t.longSize) * a.factor).toFixed(5)),
          shortTargetBase: Number((Number(t.shortSize) * a.factor).toFixed(5)),
        })
        break
      }
      case 'close': {
        const id = tasks[a.task % Math.max(1, tasks.length)]
        if (id) await api('POST', `/v1/delta-neutral/tasks/${id}/close`, {})
        break
      }
      case 'order': {
        const held = Number(net(o, a.venue))
        // a reduce-only order as a user sends it: against what is held
        const side = a.reduce ? (held > 0 ? 'short' : 'long') : a.side
        const size = a.reduce
          ? Math.abs(held) / 2
          : a.sizeUsd / (await mark(a.venue))
        if (!(size > 0.0001)) break
        const res = await api('POST', '/v1/perp/orders', {
          venue: a.venue,
          market: BTC[a.venue],
          side,
          orderType: 'market',
          sizeBase: Number(size.toFixed(5)),
          ...(a.reduce ? { reduceOnly: true } : {}),
        })
        if (res.status === 202) {
          const got = await call(
            bed.svc,
            'GET',
            `/v1/perp/orders/${res.body.orderId}`,
            {
              key: o.apiKey,
            },
          )
          direct.add(got.body.order.clientOrderId)
        }
        break
      }
      case 'refuse':
        // the venue refuses the orders of the next step, dn's closes too
        bed.venues.exchanges[a.venue].setFaults({ rejectRate: 1 })
        await bed.drain()
        bed.venues.exchanges[a.venue].setFaults({ rejectRate: 0 })
        break
      case 'external': {
        const rules = await bed.venues.marketData.rules(a.venue, BTC[a.venue])
        const step = Number(rules?.sizeStep)
        const size = Math.floor(a.sizeUsd / (await mark(a.venue)) / step) * step
        const price = (await mark(a.venue)) * (a.side === 'long' ? 1.1 : 0.9)
        // a trade the venue would refuse for its minimums is no trade
        if (
          !(size > 0) ||
          size < Number(rules?.minBase) ||
          size * price < Number(rules?.minNotionalUsd)
        )
          break
        bed.venues.exchanges[a.venue].place(o.owner, {
          market: BTC[a.venue],
          side: a.side,
          size: size.toFixed(8).replace(/\.?0+$/, ''),
          price: String(Math.round(price)),
          timeInForce: 'ioc',
          reduceOnly: false,
          clientOrderId: `0x${Date.now().toString(16)}${Math.random().toString(16).slice(2, 10)}`,
        })
        break
      }
      case 'wait':
        await bed.advance(a.ms)
        break
    }
  }

  /** Closes what is open and cancels what waits, then lets it all end. */
  async function windDown(o: TestOwner, tasks: string[]) {
    for (const id of tasks) {
      const t = await bed.getTask(o, id)
      const action =
        t.status === 'pending'
          ? 'cancel'
          : ['running', 'resizing'].includes(t.status)
            ? 'close'
            : null
      if (action) await bed.taskAction(o, id, action)
    }
    await settle(o)
    for (let i = 0; i < 5; i++) {
      const open = []
      for (const id of tasks) {
        const t = await bed.getTask(o, id)
        if (!['closed', 'cancelled', 'failed'].includes(t.status)) open.push(t)
      }
      if (open.length === 0) return []
      await bed.advance(10_000)
    }
    const left = []
    for (const id of tasks) left.push(await bed.getTask(o, id))
    return left.filter(
      (t) => !['closed', 'cancelled', 'failed'].includes(t.status),
    )
  }

  test('property: with no change outside dn, every account market’s ledger adds up to the venue’s net at rest, and ends with the direct orders alone', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(action(false), { minLength: 3, maxLength: 10 }),
        async (actions) => {
          const o = owner()
          const tasks: string[] = []
          for (const [i, a] of actions.entries()) {
            await perform(o, tasks, a)
            await settle(o)
            for (const id of tasks)
              if ((await bed.getTask(o, id)).status === 'running') ran.add(id)
            for (const l of await ledgers(o)) {
              expect(
                l.external,
                `after step ${i} (${JSON.stringify(a)}): ${JSON.stringify(l)}`,
              ).toBe('0')
            }
          }
          const left = await windDown(o, tasks)
          expect(
            await Promise.all(
              left.map(async (t) => {
                const row = await bed.svc.store.tasks.get(t.taskId)
                return `${t.status} ${t.closeReason}: ${t.error} next ${row?.nextCheckAt} lease ${row?.leaseOwner} now ${new Date(bed.clock.now()).toISOString()} op ${JSON.stringify(row?.engineState?.op)}`
              }),
            ),
          ).toEqual([])
          for (const l of await ledgers(o)) {
            // the tasks are gone: the net is the direct orders' fills
            expect(l.external, JSON.stringify(l)).toBe('0')
          }
          expect(refusedReduceOnly).toEqual([])
        },
      ),
      // a failing run shrinks over whole worker runs: bounded, so a
      // failure reports its counterexample well inside the test timeout
      {
        numRuns: 25,
        interruptAfterTimeLimit: 400_000,
        markInterruptAsFailure: true,
      },
    )
    // the runs opened tasks beside each other and beside direct orders
    expect(ran.size).toBeGreaterThanOrEqual(10)
  }, 600_000)

  test('property: with trades made at the venue besides, no order dn sends is refused as reduce-only, and every task still ends', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(action(true), { minLength: 3, maxLength: 10 }),
        async (actions) => {
          const o = owner()
          const tasks: string[] = []
          for (const a of actions) {
            await perform(o, tasks, a)
            await settle(o)
          }
          const left = await windDown(o, tasks)
          expect(
            left.map((t) => `${t.status} ${t.closeReason}: ${t.error}`),
          ).toEqual([])
          expect(refusedReduceOnly).toEqual([])
        },
      ),
      // a failing run shrinks over whole worker runs: bounded, so a
      // failure reports its counterexample well inside the test timeout
      {
        numRuns: 25,
        interruptAfterTimeLimit: 400_000,
        markInterruptAsFailure: true,
      },
    )
  }, 600_000)
})
