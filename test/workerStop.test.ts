import type { Repos } from '@dn/core'
import { startWorker, type VenueAdapter } from '@dn/core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { call, dialects, type TestOwner } from './support/testService.js'
import { startWorkerBed, type WorkerBed } from './support/workerHarness.js'

const ORDERS = '/v1/perp/orders'

/**
 * `RunningWorker.stop(deadline)`: an item still in flight at the deadline
 * keeps its lease (as after a crash) and is reported; an item that failed
 * gives its lease back, so the next worker takes it at once.
 */
describe.each(dialects())('stopping a worker (%s)', (dialect) => {
  let bed: WorkerBed
  let o: TestOwner
  beforeAll(async () => {
    bed = await startWorkerBed({ dialect })
    o = await bed.owner()
  })
  afterAll(() => bed?.close())

  /** a market order of about USD 35-100 on hl `market` (one per test: an owner's orders on a market go one at a time) */
  async function place(market: string, by: TestOwner = o) {
    const res = await call(bed.svc, 'POST', ORDERS, {
      key: by.apiKey,
      body: {
        venue: 'hl',
        market,
        side: 'long',
        orderType: 'market',
        sizeBase: market === 'ETH' ? 0.01 : 0.001,
      },
    })
    expect(res.status, res.text).toBe(202)
    return res.body.orderId as string
  }

  /** The bed's worker with hl's place() replaced. */
  function withPlace(place: VenueAdapter['place']) {
    const hl = bed.worker.adapters.hl
    return {
      ...bed.worker,
      adapters: { ...bed.worker.adapters, hl: { ...hl, place } },
    }
  }

  async function leased(id: string) {
    for (let i = 0; i < 200; i++) {
      const row = await bed.svc.store.orders.get(id)
      if (row?.leaseOwner) return row
      await new Promise((r) => setTimeout(r, 10))
    }
    throw new Error(`order ${id} was never claimed`)
  }

  test('behavior: an item still in flight at the deadline is reported and keeps its lease', async () => {
    let release: () => void = () => {}
    const hanging = new Promise<void>((r) => {
      release = r
    })
    const id = await place('BTC')
    const running = startWorker(
      withPlace(async () => {
        await hanging
        throw new Error('never answers in time')
      }),
    )
    await leased(id)
    // give the claim a moment to reach the venue call
    await new Promise((r) => setTimeout(r, 50))
    const report = await running.stop(200)
    expect(report.left).toEqual([`order:${id}`])
    expect(report.released).toBe(0)
    const row = await bed.svc.store.orders.get(id)
    expect(row?.leaseOwner).toBe(bed.worker.workerId)
    expect(row?.status).toBe('submitting')
    release()
    await running.done
  })

  test('behavior: an item that failed gives its lease back at the stop', async () => {
    const id = await place('ETH')
    // the step's first write fails (a store hiccup): the round logs it and
    // the item keeps its lease until expiry, its retry's backoff
    let failures = 0
    const base = bed.worker.store
    const orders = base.orders
    const failing = (tx: Repos): Repos => ({
      ...tx,
      orders: {
        ...tx.orders,
        update: ((oid, patch, guard) => {
          if (oid === id && failures === 0 && patch.leaseOwner !== null) {
            failures++
            return Promise.reject(new Error('database hiccup'))
          }
          return tx.orders.update(oid, patch, guard)
        }) as typeof orders.update,
      },
    })
    const store = {
      ...base,
      ...failing(base),
      transaction: <T>(fn: (tx: Repos) => Promise<T>) =>
        base.transaction((tx) => fn(failing(tx))),
      sharedTransaction: <T>(fn: (tx: Repos) => Promise<T>) =>
        base.sharedTransaction((tx) => fn(failing(tx))),
    }
    const running = startWorker({ ...bed.worker, store })
    for (let i = 0; i < 200 && failures === 0; i++) {
      await new Promise((r) => setTimeout(r, 10))
    }
    await new Promise((r) => setTimeout(r, 50))
    expect(failures).toBe(1)
    expect((await orders.get(id))?.leaseOwner).toBe(bed.worker.workerId)
    const report = await running.stop()
    expect(report.left).toEqual([])
    expect(report.released).toBe(1)
    const row = await orders.get(id)
    expect(row?.leaseOwner).toBeNull()
    expect(row?.status).toBe('pending')
  })

  test('behavior: claims go on while a slow item runs, and its lease is renewed', async () => {
    let release: () => void = () => {}
    const hanging = new Promise<void>((r) => {
      release = r
    })
    // an owner of its own: the other tests' orders are not in its way
    const me = await bed.owner()
    const slow = await place('BTC', me)
    const hl = bed.worker.adapters.hl
    const leaseMs = 400
    const running = startWorker({
      ...withPlace(async (cred, request) => {
        // only the slow order's send hangs
        const row = await bed.svc.store.orders.get(slow)
        if (request.clientOrderId === row?.clientOrderId) await hanging
        return hl.place(cred, request)
      }),
      leaseMs,
    })
    try {
      const first = await leased(slow)
      // new work is taken and finished while the slow one is still in flight
      const quick = await place('ETH', me)
      let done = await bed.svc.store.orders.get(quick)
      for (let i = 0; i < 300 && done?.status !== 'filled'; i++) {
        await new Promise((r) => setTimeout(r, 10))
        done = await bed.svc.store.orders.get(quick)
      }
      expect(done?.status).toBe('filled')
      // three leases' time passes (the bed's clock moves only when told)
      for (let i = 0; i < 6; i++) {
        bed.clock.advance(leaseMs / 2)
        await new Promise((r) => setTimeout(r, leaseMs / 2))
      }
      // the slow one outlived its first lease and is still this worker's
      const still = await bed.svc.store.orders.get(slow)
      expect(still?.status).toBe('submitting')
      expect(still?.leaseOwner).toBe(bed.worker.workerId)
      expect(still?.fence).toBe(first.fence)
      expect(Date.parse(still?.leaseExpiresAt as string)).toBeGreaterThan(
        bed.clock.now(),
      )
      // so no other worker takes it over while this one lives
      const taken = await bed.svc.store.orders.claim({
        workerId: 'another',
        now: new Date(bed.clock.now()).toISOString(),
        leaseMs,
        statuses: ['submitting'],
        limit: 10,
      })
      expect(taken.map((r) => r.id)).not.toContain(slow)
    } finally {
      release()
      await running.stop()
    }
    const after = await bed.svc.store.orders.get(slow)
    expect(after?.status).toBe('filled')
  })
})
