import { describe, expect, test } from 'vitest'
import type { PerpOrderRecord } from '../domain/perpOrder.js'
import { NEVER_PLACED_AFTER_MS, SEND_WINDOW_MS } from '../domain/sendWindow.js'
import { EDGE_WAIT_MS } from '../domain/venueOrderMachine.js'
import { RequestBudgetError, VenueUnavailableError } from '../errors/venue.js'
import type { Repos } from '../ports/store.js'
import { orderLock } from './accountMarketLock.js'
import {
  FIXTURE_NOW,
  FIXTURE_OWNER,
  MEMORY_VISIBILITY_LAG_MS,
  memoryWorker,
  type PlaceScript,
} from './memoryVenue.fixture.js'
import { processPerpOrder } from './processPerpOrder.js'

const iso = (ms: number) => new Date(ms).toISOString()
const CLOID = '0x0000000000000000000000000000abcd'

function order(over: Partial<PerpOrderRecord> = {}): PerpOrderRecord {
  return {
    id: 'order-1',
    owner: FIXTURE_OWNER,
    apiKeyId: 'key-1',
    venue: 'hl',
    market: 'ETH',
    side: 'long',
    orderType: 'limit',
    sizeBase: '1.234',
    requestedLimitPrice: '101',
    limitPrice: null,
    timeInForce: 'gtc',
    slippageBps: 0,
    reduceOnly: false,
    status: 'pending',
    requestedBase: null,
    filledBase: '0',
    averagePrice: null,
    clientOrderId: CLOID,
    venueOrderId: null,
    venueStatus: null,
    error: null,
    cancelRequestedAt: null,
    submittedAt: null,
    sendBy: null,
    observedAt: null,
    expiresAt: iso(FIXTURE_NOW + 3_600_000),
    createdAt: iso(FIXTURE_NOW),
    updatedAt: iso(FIXTURE_NOW),
    resolution: null,
    leaseOwner: null,
    leaseExpiresAt: null,
    fence: 0,
    nextCheckAt: null,
    ...over,
  }
}

/** One order in a real store, stepped as the worker steps a claimed row. */
async function bed(over: Partial<PerpOrderRecord> = {}, script?: PlaceScript) {
  const w = await memoryWorker(['hl'])
  const hl = w.venue.hl as NonNullable<(typeof w.venue)['hl']>
  if (script) hl.state.script = script
  await w.store.orders.insert(order(over))
  const step = async () => {
    const row = await w.store.orders.get('order-1')
    if (!row) throw new RangeError('no order')
    return processPerpOrder(w.deps, row)
  }
  return { ...w, hl, step }
}

describe('processPerpOrder: submit', () => {
  test('default: commits, sends once within the send window, records the venue', async () => {
    const { step, hl } = await bed({}, 'rest')
    const after = await step()
    expect(after).toMatchObject({
      status: 'open',
      requestedBase: '1.23',
      limitPrice: '101',
      submittedAt: iso(FIXTURE_NOW),
      venueOrderId: '1',
      venueStatus: 'open',
      observedAt: iso(FIXTURE_NOW),
      nextCheckAt: iso(FIXTURE_NOW + 1_000),
      leaseOwner: null,
    })
    expect(hl.sent).toHaveLength(1)
    expect(hl.sent[0]).toMatchObject({
      clientOrderId: CLOID,
      size: '1.23',
      price: '101',
      timeInForce: 'gtc',
      validUntil: FIXTURE_NOW + SEND_WINDOW_MS,
    })
  })

  test("behavior: a venue's own send window is signed into the send and kept on the order; the proof that it never arrived comes that much sooner", async () => {
    const { step, hl, clock } = await bed(
      { expiresAt: iso(FIXTURE_NOW + 60_000) },
      'lost',
    )
    ;(hl.adapter as { sendWindowMs?: number }).sendWindowMs = 6_000
    hl.state.venueNow = () => clock.ms
    expect(await step()).toMatchObject({
      status: 'unknown',
      submittedAt: iso(FIXTURE_NOW),
      sendBy: iso(FIXTURE_NOW + 6_000),
    })
    expect(hl.sent[0]?.validUntil).toBe(FIXTURE_NOW + 6_000)
    // proven past its own deadline and the venue's lag, not the default's
    clock.ms = FIXTURE_NOW + 6_000 + MEMORY_VISIBILITY_LAG_MS + 1_000
    expect(await step()).toMatchObject({
      status: 'pending',
      submittedAt: null,
      sendBy: null,
    })
    hl.state.script = 'fill'
    expect(await step()).toMatchObject({
      status: 'filled',
      sendBy: iso(clock.ms + 6_000),
    })
    expect(hl.sent[1]?.validUntil).toBe(clock.ms + 6_000)
  })

  test('behavior: a row saved before deadlines were kept is read with submittedAt plus the default window', async () => {
    const { step, hl, clock } = await bed(
      { status: 'unknown', submittedAt: iso(FIXTURE_NOW), sendBy: null },
      'fill',
    )
    ;(hl.adapter as { sendWindowMs?: number }).sendWindowMs = 6_000
    hl.state.venueNow = () => clock.ms
    // the short window would prove it here; the row was signed with 15 s
    clock.ms = FIXTURE_NOW + 6_000 + MEMORY_VISIBILITY_LAG_MS + 1_000
    expect(await step()).toMatchObject({ status: 'unknown' })
    clock.ms = FIXTURE_NOW + SEND_WINDOW_MS + MEMORY_VISIBILITY_LAG_MS + 1_000
    expect(await step()).toMatchObject({ status: 'pending' })
  })

  test('behavior: a market order goes as IOC at the protection price on the grid', async () => {
    const { step, hl } = await bed(
      {
        orderType: 'market',
        requestedLimitPrice: null,
        timeInForce: 'ioc',
        slippageBps: 100,
        side: 'short',
      },
      'fill',
    )
    expect(await step()).toMatchObject({
      status: 'filled',
      limitPrice: '99',
      filledBase: '1.23',
      averagePrice: '99',
      nextCheckAt: null,
    })
    expect(hl.sent[0]).toMatchObject({ timeInForce: 'ioc', price: '99' })
    // the quote it is priced from is part of sending it
    expect(hl.quotes).toEqual(['order'])
  })

  test('behavior: refused by the venue, it is rejected with the reason', async () => {
    const { step } = await bed({}, 'reject')
    expect(await step()).toMatchObject({
      status: 'rejected',
      venueStatus: 'rejected',
      error: 'insufficient margin',
      nextCheckAt: null,
    })
  })

  test('behavior: a refusal answered after the send window closed is the late request’s, not the order’s: it goes again', async () => {
    const { step, hl, clock } = await bed({}, 'reject')
    const place = hl.adapter.place
    // the answer comes back once the deadline signed into the send passed
    hl.adapter.place = async (cred, r) => {
      clock.ms = r.validUntil ?? clock.ms
      return place.call(hl.adapter, cred, r)
    }
    expect(await step()).toMatchObject({
      status: 'pending',
      submittedAt: null,
      sendBy: null,
      error: null,
    })
    hl.adapter.place = place
    hl.state.script = 'fill'
    expect(await step()).toMatchObject({ status: 'filled' })
    expect(hl.sent.map((r) => r.clientOrderId)).toEqual([CLOID, CLOID])
  })

  test('behavior: nothing sent (outage), the same client order id goes again later', async () => {
    const { step, hl, clock } = await bed({}, 'unavailable')
    expect(await step()).toMatchObject({
      status: 'pending',
      submittedAt: null,
      error: null,
      nextCheckAt: iso(FIXTURE_NOW + 2_000),
    })
    expect(hl.sent).toHaveLength(0)
    hl.state.script = 'fill'
    clock.ms += 2_000
    expect(await step()).toMatchObject({ status: 'filled' })
    expect(hl.sent.map((r) => r.clientOrderId)).toEqual([CLOID])
  })

  test('behavior: an uncertain send that landed is found by client order id, never resent', async () => {
    const { step, hl, clock } = await bed({}, 'landed')
    expect(await step()).toMatchObject({
      status: 'unknown',
      error:
        'submission outcome unknown (timed out); reconciling by client order id',
      nextCheckAt: iso(FIXTURE_NOW + 1_000),
    })
    clock.ms += 1_000
    expect(await step()).toMatchObject({
      status: 'filled',
      error: null,
      filledBase: '1.23',
    })
    expect(hl.sent).toHaveLength(1)
  })

  test('behavior: an uncertain send the venue never got goes again once its window closed, with the same client order id', async () => {
    const { step, hl, clock } = await bed({}, 'lost')
    expect(await step()).toMatchObject({ status: 'unknown' })
    clock.ms = FIXTURE_NOW + NEVER_PLACED_AFTER_MS
    // looked at again as soon as the rule can hold, not on the backoff
    expect(await step()).toMatchObject({
      status: 'unknown',
      nextCheckAt: iso(clock.ms + 1_000),
    })
    clock.ms = FIXTURE_NOW + NEVER_PLACED_AFTER_MS + 1
    expect(await step()).toMatchObject({
      status: 'pending',
      submittedAt: null,
      venueStatus: null,
      observedAt: null,
      error:
        'the venue never received the last send (not found after its send window closed); sending again',
      nextCheckAt: iso(clock.ms),
    })
    hl.state.script = 'fill'
    expect(await step()).toMatchObject({ status: 'filled', error: null })
    expect(hl.sent.map((r) => r.clientOrderId)).toEqual([CLOID, CLOID])
    // the second send is signed afresh: a new deadline
    expect(hl.sent[1]?.validUntil).toBe(clock.ms + SEND_WINDOW_MS)
  })

  test('behavior: an uncertain send not found is looked up half as often as it is old, then at the moment it can be proven', async () => {
    const { step, clock } = await bed({}, 'lost')
    expect(await step()).toMatchObject({ status: 'unknown' })
    const lookups: number[] = []
    let next = FIXTURE_NOW + 1_000
    while (next < FIXTURE_NOW + NEVER_PLACED_AFTER_MS) {
      clock.ms = next
      lookups.push(clock.ms - FIXTURE_NOW)
      const after = await step()
      expect(after.status).toBe('unknown')
      next = Date.parse(after.nextCheckAt ?? '')
    }
    // 1, 2, 3, 4.5 s, … (not a lookup a second until the proof)
    expect(lookups.slice(0, 5)).toEqual([1_000, 2_000, 3_000, 4_500, 6_750])
    expect(lookups.length).toBeLessThan(15)
    // and the last look is the first moment the proof can hold
    expect(next).toBe(FIXTURE_NOW + NEVER_PLACED_AFTER_MS + 1)
  })

  test('behavior: an uncertain send the venue never got ends expired when its queue deadline passed meanwhile', async () => {
    const { step, hl, clock } = await bed(
      { expiresAt: iso(FIXTURE_NOW + 60_000) },
      'lost',
    )
    expect(await step()).toMatchObject({ status: 'unknown' })
    clock.ms = FIXTURE_NOW + NEVER_PLACED_AFTER_MS + 1
    expect(await step()).toMatchObject({
      status: 'expired',
      venueStatus: null,
      error:
        'the venue never received this order: not found after its send window closed',
      nextCheckAt: null,
    })
    expect(hl.calls.filter((c) => c.startsWith('place'))).toHaveLength(1)
    // past its deadline the proof sends nothing: the lookup is a read's
    expect(hl.calls).toContain(`order ${CLOID}`)
    expect(hl.calls).not.toContain(`order ${CLOID} @order`)
  })

  /** A market order due 60 s after acceptance, as the API makes one. */
  const ioc = {
    orderType: 'market',
    requestedLimitPrice: null,
    timeInForce: 'ioc',
    slippageBps: 100,
    expiresAt: iso(FIXTURE_NOW + 60_000),
  } as const
  const EDGE = FIXTURE_NOW + SEND_WINDOW_MS + MEMORY_VISIBILITY_LAG_MS

  test("behavior: an uncertain IOC send the venue never got goes again once the venue's clock is past its deadline and lag, within its queue deadline", async () => {
    const { step, hl, clock } = await bed(ioc, 'lost')
    hl.state.venueNow = () => clock.ms
    expect(await step()).toMatchObject({ status: 'unknown' })
    clock.ms = EDGE - 10_000
    expect(await step()).toMatchObject({ status: 'unknown' })
    // at the edge the venue may still show it: no lookup then can prove
    // it absent, so none goes; it is looked at just after
    clock.ms = EDGE
    expect(await step()).toMatchObject({
      status: 'unknown',
      nextCheckAt: iso(EDGE + 1_000),
    })
    expect(hl.sent).toHaveLength(1)
    clock.ms = EDGE + 1_000
    expect(await step()).toMatchObject({ status: 'pending', observedAt: null })
    hl.state.script = 'fill'
    expect(await step()).toMatchObject({ status: 'filled', filledBase: '1.23' })
    expect(hl.sent.map((r) => r.clientOrderId)).toEqual([CLOID, CLOID])
    expect(hl.sent[1]?.validUntil).toBe(clock.ms + SEND_WINDOW_MS)
    // the lookup that could prove it never arrived, and send it again, went
    // with an order's priority; the ones before could not, and did not
    const lookups = hl.calls.filter((c) => c.startsWith('order '))
    expect(lookups).toEqual([`order ${CLOID}`, `order ${CLOID} @order`])
  })

  test('behavior: a venue clock behind ours holds the resend until it too is past the edge', async () => {
    const { step, hl, clock } = await bed(ioc, 'lost')
    hl.state.venueNow = () => clock.ms - 15_000
    expect(await step()).toMatchObject({ status: 'unknown' })
    clock.ms = EDGE + 15_000
    // looked at again once the venue's clock can show a second past it
    expect(await step()).toMatchObject({
      status: 'unknown',
      nextCheckAt: iso(EDGE + 16_000),
    })
    clock.ms = EDGE + 16_000
    expect(await step()).toMatchObject({ status: 'pending' })
    expect(hl.sent).toHaveLength(1)
  })

  test('behavior: a venue Date ahead of our clock proves nothing until ours is past the edge too', async () => {
    const { step, hl, clock } = await bed(ioc, 'lost')
    hl.state.venueNow = () => clock.ms + 60_000
    expect(await step()).toMatchObject({ status: 'unknown' })
    clock.ms = EDGE - EDGE_WAIT_MS
    expect(await step()).toMatchObject({
      status: 'unknown',
      nextCheckAt: iso(EDGE + 1),
    })
    expect(hl.calls.filter((c) => c.startsWith('order '))).toHaveLength(1)
    clock.ms = EDGE + 1
    expect(await step()).toMatchObject({ status: 'pending' })
  })

  test('behavior: a lookup due just before the never-placed edge waits for it instead of asking in vain, then proves it at once', async () => {
    const { step, hl, clock } = await bed(ioc, 'lost')
    hl.state.venueNow = () => clock.ms
    expect(await step()).toMatchObject({ status: 'unknown' })
    // due (a busy worker claimed it late) 2 s before the edge
    clock.ms = EDGE - 1_500
    expect(await step()).toMatchObject({
      status: 'unknown',
      nextCheckAt: iso(EDGE + 1_000),
    })
    expect(hl.calls.filter((c) => c.startsWith('order '))).toEqual([])
    clock.ms = EDGE + 1_000
    expect(await step()).toMatchObject({ status: 'pending', observedAt: null })
    expect(hl.calls.filter((c) => c.startsWith('order '))).toEqual([
      `order ${CLOID} @order`,
    ])
    hl.state.script = 'fill'
    expect(await step()).toMatchObject({ status: 'filled' })
    expect(hl.sent.map((r) => r.clientOrderId)).toEqual([CLOID, CLOID])
  })

  test('behavior: an uncertain IOC send that landed is found by the venue-timed lookup, never resent', async () => {
    const { step, hl, clock } = await bed(ioc, 'landed')
    hl.state.venueNow = () => clock.ms
    expect(await step()).toMatchObject({ status: 'unknown' })
    clock.ms = EDGE + 1_000
    expect(await step()).toMatchObject({ status: 'filled', filledBase: '1.23' })
    expect(hl.sent).toHaveLength(1)
  })

  test('behavior: a cancel asked before sending cancels it with no venue call', async () => {
    const { step, hl } = await bed({ cancelRequestedAt: iso(FIXTURE_NOW) })
    expect(await step()).toMatchObject({ status: 'cancelled' })
    expect(hl.calls).toEqual([])
  })

  test('behavior: past its queue deadline it expires unsent', async () => {
    const { step, hl } = await bed({ expiresAt: iso(FIXTURE_NOW) })
    expect(await step()).toMatchObject({
      status: 'expired',
      error: 'the queue deadline passed before the order could be submitted',
    })
    expect(hl.calls).toEqual([])
  })

  test('error: sizes that round to zero or exceed the key cap are rejected unsent', async () => {
    const zero = await bed({ sizeBase: '0.004' })
    expect(await zero.step()).toMatchObject({
      status: 'rejected',
      error: 'size rounds down to zero at the venue step',
    })
    const big = await bed({ sizeBase: '10', requestedLimitPrice: '101' })
    expect(await big.step()).toMatchObject({
      status: 'rejected',
      error:
        "risk USD 1010 at the fresh mark exceeds the key's maxSizeUsd 1000",
    })
    expect([...zero.hl.calls, ...big.hl.calls]).toEqual([])
  })

  test('error: a market the venue no longer lists is rejected unsent', async () => {
    const { step } = await bed({ market: 'GONE' })
    expect(await step()).toMatchObject({
      status: 'rejected',
      error: 'hl no longer lists GONE',
    })
  })
})

describe('processPerpOrder: shared commits', () => {
  test("a shared commit that failed as a whole and runs its members again: the step's writes are all made, submitting before the send", async () => {
    const b = await bed({}, 'rest')
    let failOnce = true
    const deps = {
      ...b.deps,
      store: {
        ...b.store,
        // as the commit group does when a group's commit fails: each
        // member runs again in a transaction of its own
        sharedTransaction: async <T>(fn: (tx: Repos) => Promise<T>) => {
          if (failOnce) {
            failOnce = false
            await b.store
              .transaction(async (tx) => {
                await fn(tx)
                throw new Error('the group commit failed')
              })
              .catch(() => undefined)
          }
          return b.store.transaction(fn)
        },
      },
    }
    const seenAtSend: string[] = []
    const place = b.hl.adapter.place.bind(b.hl.adapter)
    b.hl.adapter.place = async (cred, request) => {
      seenAtSend.push((await b.store.orders.get('order-1'))?.status ?? 'none')
      return place(cred, request)
    }
    const done = await processPerpOrder(
      deps,
      (await b.store.orders.get('order-1')) as PerpOrderRecord,
    )
    expect(seenAtSend).toEqual(['submitting'])
    expect(done).toMatchObject({ status: 'open', limitPrice: '101' })
    expect(await b.store.orders.get('order-1')).toMatchObject({
      status: 'open',
      limitPrice: '101',
      submittedAt: iso(FIXTURE_NOW),
      leaseOwner: null,
    })
  })
})

describe('processPerpOrder: the account lock', () => {
  /**
   * The bed, with the lock's release slowed and the order as the release
   * sees it recorded: in the step's last transaction (its own writes
   * included), or alone after a failed step.
   */
  async function lockBed(
    o: { over?: Partial<PerpOrderRecord>; locked?: boolean } = {},
  ) {
    const b = await bed(o.over ?? {}, 'rest')
    const seenAtRelease: string[] = []
    const acquired: string[] = []
    const spied = (repos: Repos): Repos => ({
      ...repos,
      locks: {
        ...repos.locks,
        acquire: (name, holder, now, ttlMs) => {
          acquired.push(name)
          return repos.locks.acquire(name, holder, now, ttlMs)
        },
        release: async (name: string, holder: string) => {
          const row = await repos.orders.get('order-1')
          seenAtRelease.push(row?.status ?? 'none')
          // a slow release: what it guards must not go on without it
          await new Promise((r) => setTimeout(r, 20))
          return repos.locks.release(name, holder)
        },
      },
    })
    const deps = {
      ...b.deps,
      store: {
        ...b.store,
        ...spied(b.store),
        transaction: <T>(fn: (tx: Repos) => Promise<T>) =>
          b.store.transaction((tx) => fn(spied(tx))),
        sharedTransaction: <T>(fn: (tx: Repos) => Promise<T>) =>
          b.store.sharedTransaction((tx) => fn(spied(tx))),
      },
    }
    const step = async () =>
      processPerpOrder(
        deps,
        (await b.store.orders.get('order-1')) as PerpOrderRecord,
        o.locked ?? false,
      )
    return { ...b, step, seenAtRelease, acquired }
  }

  /** Takes the order's lock as its claim would, for the step's holder. */
  async function claimLock(b: Awaited<ReturnType<typeof lockBed>>) {
    const row = (await b.store.orders.get('order-1')) as PerpOrderRecord
    const { name, holder } = orderLock(b.deps.workerId, row)
    expect(
      await b.store.locks.acquire(name, holder, iso(FIXTURE_NOW), 30_000),
    ).toBe(true)
    return name
  }

  test('taken by the claim: the step writes no lock of its own, and releases it with the answer', async () => {
    const b = await lockBed({ locked: true })
    const name = await claimLock(b)
    expect((await b.step()).status).toBe('open')
    expect(b.acquired).toEqual([])
    expect(b.seenAtRelease).toEqual(['open'])
    // free for anyone now
    expect(
      await b.store.locks.acquire(name, 'w9|task|x', iso(FIXTURE_NOW), 1_000),
    ).toBe(true)
  })

  test('taken by the claim, the order cancelled before sending: the lock is released, nothing sent', async () => {
    const b = await lockBed({
      over: { cancelRequestedAt: iso(FIXTURE_NOW) },
      locked: true,
    })
    const name = await claimLock(b)
    expect((await b.step()).status).toBe('cancelled')
    expect(b.hl.calls).toEqual([])
    expect(b.seenAtRelease).toEqual(['cancelled'])
    expect(
      await b.store.locks.acquire(name, 'w9|task|x', iso(FIXTURE_NOW), 1_000),
    ).toBe(true)
  })

  test('not taken by the claim: the step takes it before any read', async () => {
    const b = await lockBed()
    expect((await b.step()).status).toBe('open')
    expect(b.acquired).toEqual([`${FIXTURE_OWNER}|hl|ETH`])
  })

  test('default: is released only after the venue answer is saved', async () => {
    const { step, seenAtRelease } = await lockBed()
    expect((await step()).status).toBe('open')
    expect(seenAtRelease).toEqual(['open'])
  })

  test('fenced while placing: the step fails FencedOutError, handled, and the lock is released', async () => {
    const { step, seenAtRelease, store, hl } = await lockBed()
    const place = hl.adapter.place.bind(hl.adapter)
    hl.adapter.place = async (cred, request) => {
      const placed = await place(cred, request)
      // another worker takes the row over while the answer is on its way
      await store.orders.claim({
        workerId: 'thief',
        now: iso(FIXTURE_NOW + 60_000),
        leaseMs: 60_000,
        statuses: ['submitting'],
        limit: 1,
      })
      return placed
    }
    await expect(step()).rejects.toMatchObject({ code: 'fenced_out' })
    expect(seenAtRelease).toEqual(['submitting'])
    // nothing was left to reject later without a handler
    await new Promise((r) => setTimeout(r, 50))
  })
})

describe('processPerpOrder: reconcile', () => {
  test('behavior: a row left submitting (worker died) becomes unknown and is looked up, not resent', async () => {
    const { step, hl, clock } = await bed({
      status: 'submitting',
      submittedAt: iso(FIXTURE_NOW),
      requestedBase: '1.23',
      limitPrice: '101',
    })
    clock.ms += 1_000
    expect(await step()).toMatchObject({
      status: 'unknown',
      error:
        'the worker stopped while submitting; reconciling by client order id',
    })
    expect(hl.calls).toEqual([`order ${CLOID}`])
  })

  test('behavior: a cancel request cancels the resting order at the venue', async () => {
    const { step, hl, store, clock } = await bed({}, 'rest')
    await step()
    await store.orders.update('order-1', {
      cancelRequestedAt: iso(FIXTURE_NOW + 500),
      updatedAt: iso(FIXTURE_NOW + 500),
    })
    clock.ms += 1_000
    expect(await step()).toMatchObject({
      status: 'cancelled',
      venueStatus: 'canceled',
      nextCheckAt: null,
    })
    expect(hl.calls).toEqual([
      `place ${CLOID}`,
      `order ${CLOID}`,
      `cancel ${CLOID}`,
      `order ${CLOID}`,
    ])
  })

  test('behavior: a resting order is read every second at first, then at a tenth of its age, at most 5 s apart, and at its expiry', async () => {
    const { step, clock } = await bed(
      { expiresAt: iso(FIXTURE_NOW + 120_000) },
      'rest',
    )
    const next = async (after: number) => {
      clock.ms = FIXTURE_NOW + after
      const row = await step()
      return Date.parse(row.nextCheckAt ?? '') - clock.ms
    }
    expect(await next(0)).toBe(1_000)
    expect(await next(5_000)).toBe(1_000)
    expect(await next(30_000)).toBe(3_000)
    expect(await next(80_000)).toBe(5_000)
    // not past its expiry, when it is cancelled
    expect(await next(118_000)).toBe(2_000)
  })

  test("behavior: a lookup the venue's budget refused is asked again once the budget has room (at most 15 s), any other unanswered one in a second", async () => {
    const { step, clock, deps } = await bed({}, 'rest')
    await step()
    const adapter = deps.adapters.hl as { orderWithVenueTime?: unknown }
    let error: Error = new RequestBudgetError('hl: not sent, spent', {
      retryAfterMs: 7_000,
    })
    adapter.orderWithVenueTime = async () => {
      throw error
    }
    const next = async () => {
      clock.ms += 1_000
      const row = await step()
      return Date.parse(row.nextCheckAt ?? '') - clock.ms
    }
    expect(await next()).toBe(7_000)
    error = new RequestBudgetError('hl: not sent, spent', {
      retryAfterMs: 90_000,
    })
    expect(await next()).toBe(15_000)
    error = new VenueUnavailableError('hl: down')
    expect(await next()).toBe(1_000)
  })

  test('behavior: past its expiry a resting order is cancelled there and ends expired', async () => {
    const { step, clock } = await bed(
      { expiresAt: iso(FIXTURE_NOW + 5_000) },
      'rest',
    )
    await step()
    clock.ms += 5_000
    expect(await step()).toMatchObject({ status: 'expired' })
  })

  test('behavior: an open order the venue stops reporting becomes unknown, never expired', async () => {
    const { step, hl, clock } = await bed({}, 'rest')
    await step()
    hl.orders.clear()
    clock.ms += 10 * NEVER_PLACED_AFTER_MS
    expect(await step()).toMatchObject({
      status: 'unknown',
      error: 'the venue no longer reports this order; reconciling',
    })
    clock.ms += 1_000
    expect(await step()).toMatchObject({ status: 'unknown' })
  })
})
