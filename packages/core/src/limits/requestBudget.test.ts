import fc from 'fast-check'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { RequestBudgetError, VenueUnavailableError } from '../errors/venue.js'
import {
  type BudgetCharge,
  createRequestBudget,
  DEFAULT_DELIVERY_MARGIN_MS,
  INTERACTIVE_MAX_WAIT_MS,
  PRIORITY_CEILING,
  REQUEST_PRIORITIES,
  type RequestBudgetOptions,
} from './requestBudget.js'

const T0 = 1_000_000
const WINDOW = 1_000

/** The budget reads the (faked) Date.now, and wakes on (faked) timers. */
const clock = { now: () => Date.now() }

/** Exact windows: the delivery margin has its own test. */
function budgetOf(overrides: Partial<RequestBudgetOptions> = {}) {
  return createRequestBudget({
    name: 'hl',
    limits: [{ id: 'weight', capacity: 100, windowMs: WINDOW }],
    clock,
    deliveryMarginMs: 0,
    ...overrides,
  })
}

const charge = (weight: number, bucket = 'weight'): BudgetCharge[] => [
  { limit: 'weight', bucket, weight },
]

/** Follows a promise: what it settled to, without an unhandled rejection. */
function track(p: Promise<void>, label = '', log?: string[]) {
  const t: {
    state: 'pending' | 'resolved' | 'rejected'
    error: unknown
    at: number | undefined
  } = { state: 'pending', error: undefined, at: undefined }
  p.then(
    () => {
      t.state = 'resolved'
      t.at = Date.now()
      log?.push(label)
    },
    (e: unknown) => {
      t.state = 'rejected'
      t.error = e
      t.at = Date.now()
      log?.push(`${label}!`)
    },
  )
  return t
}

/** Moves fake time on and lets every woken promise settle. */
const advance = (ms: number) => vi.advanceTimersByTimeAsync(ms)

beforeEach(() => {
  vi.useFakeTimers()
  vi.setSystemTime(T0)
})

afterEach(() => {
  vi.clearAllTimers()
  vi.useRealTimers()
})

describe('createRequestBudget', () => {
  test('default: share 0.5 of capacity 100 admits 50 weight of orders per window, then waits', async () => {
    const b = budgetOf()
    for (let i = 0; i < 5; i++) await b.acquire(charge(10), 'order')
    const sixth = track(b.acquire(charge(1), 'order'))
    await advance(0)
    expect(sixth.state).toBe('pending')
    expect(b.usage()).toEqual([
      {
        limit: 'weight',
        bucket: 'weight',
        used: 50,
        peak: 50,
        ceiling: 50,
        requests: 5,
      },
    ])
    await advance(WINDOW - 1)
    expect(sixth.state).toBe('pending')
    await advance(1)
    expect(sixth.state).toBe('resolved')
    expect(sixth.at).toBe(T0 + WINDOW)
    expect(b.usage()[0]).toMatchObject({ used: 1, requests: 6, peak: 50 })
  })

  test('default: a spend counts for its window plus the delivery margin, so requests a window apart here cannot land in one window at the venue', async () => {
    const b = createRequestBudget({
      name: 'lighter',
      limits: [{ id: 'tx', capacity: 60, windowMs: 60_000 }],
      clock,
    })
    const tx: BudgetCharge[] = [{ limit: 'tx', bucket: 'tx', weight: 1 }]
    for (let i = 0; i < 30; i++) await b.acquire(tx, 'order')
    const next = track(b.acquire(tx, 'order', { maxWaitMs: 120_000 }))
    // a window later the first 30 could still be arriving at the venue
    await advance(60_000)
    expect(next.state).toBe('pending')
    await advance(DEFAULT_DELIVERY_MARGIN_MS - 1)
    expect(next.state).toBe('pending')
    await advance(1)
    expect(next.state).toBe('resolved')
    expect(next.at).toBe(T0 + 60_000 + DEFAULT_DELIVERY_MARGIN_MS)
    // and the rate it allows is over the longer span
    expect(b.perMinute('tx', 'order')).toBeCloseTo(
      (30 * 60_000) / (60_000 + DEFAULT_DELIVERY_MARGIN_MS),
    )
  })

  test('behavior: share scales the ceiling (1 → the whole capacity, 0.2 → a fifth)', async () => {
    const whole = budgetOf({ share: 1 })
    await whole.acquire(charge(100), 'order')
    const over = track(whole.acquire(charge(1), 'order', { maxWaitMs: 10 }))
    const fifth = budgetOf({ share: 0.2 })
    await fifth.acquire(charge(20), 'order')
    const over2 = track(fifth.acquire(charge(1), 'order', { maxWaitMs: 10 }))
    await advance(20)
    expect(over.state).toBe('rejected')
    expect(over2.state).toBe('rejected')
    expect(whole.usage()[0]?.ceiling).toBe(100)
    expect(fifth.usage()[0]?.ceiling).toBe(20)
  })

  test('behavior: perMinute is what a priority may fill per minute of a limit', () => {
    // capacity 100 a second at share 0.5: 3,000 a minute of orders
    const b = budgetOf()
    expect(b.perMinute('weight', 'order')).toBe(3_000)
    expect(b.perMinute('weight', 'routine')).toBe(3_000 * 0.75)
    expect(b.perMinute('weight', 'history')).toBe(3_000 * 0.75)
    expect(b.perMinute('missing', 'order')).toBeUndefined()
    b.setLimits([{ id: 'weight', capacity: 2_400, windowMs: 60_000 }])
    expect(b.perMinute('weight', 'order')).toBe(1_200)
  })

  test('error: a share outside (0, 1] is a RangeError', () => {
    for (const share of [0, -0.5, 1.01, Number.NaN]) {
      expect(() => budgetOf({ share })).toThrow(RangeError)
    }
  })

  test('error: a charge heavier than the ceiling is refused at once', async () => {
    const b = budgetOf()
    const t = track(b.acquire(charge(51), 'order'))
    await advance(0)
    expect(t.state).toBe('rejected')
    expect(t.error).toBeInstanceOf(VenueUnavailableError)
    expect(b.usage()[0]?.used).toBe(0)
  })

  test("default: PRIORITY_CEILING keeps orders on top; funding history shares routine's ceiling, served after it", () => {
    expect(REQUEST_PRIORITIES).toEqual([
      'order',
      'urgent',
      'interactive',
      'routine',
      'history',
    ])
    expect(PRIORITY_CEILING).toEqual({
      order: 1,
      urgent: 0.9,
      interactive: 0.9,
      routine: 0.75,
      history: 0.75,
    })
  })

  test('behavior: funding history waits while a routine read waits, and takes the room monitoring leaves', async () => {
    const b = budgetOf()
    const log: string[] = []
    await b.acquire(charge(30), 'routine')
    await advance(10)
    // routine's ceiling is 37 (0.75 × 50): 7 left
    const history = track(b.acquire(charge(7), 'history'), 'history', log)
    await advance(0)
    // nothing waits ahead of it: history takes what routine left
    expect(history.state).toBe('resolved')
    const read = track(b.acquire(charge(5), 'routine'), 'routine', log)
    const later = track(b.acquire(charge(5), 'history'), 'history', log)
    await advance(0)
    expect([read.state, later.state]).toEqual(['pending', 'pending'])
    // the first 30 leave: the read first, then the history read
    await advance(WINDOW - 10)
    expect(log).toEqual(['history', 'routine', 'history'])
  })

  test.each(['urgent', 'interactive', 'routine', 'history'] as const)(
    'behavior: %s reads filling their ceiling never delay an order send',
    async (priority) => {
      const b = budgetOf()
      const ceiling = Math.floor(100 * 0.5 * PRIORITY_CEILING[priority])
      let admitted = 0
      for (;;) {
        const t = track(b.acquire(charge(1), priority))
        await advance(0)
        if (t.state !== 'resolved') {
          expect(t.state).toBe('pending')
          break
        }
        admitted++
      }
      expect(admitted).toBe(ceiling)
      // the room reads leave is there for orders, now
      const order = track(b.acquire(charge(50 - ceiling), 'order'))
      await advance(0)
      expect(order.state).toBe('resolved')
      expect(b.usage()[0]?.used).toBe(50)
    },
  )

  test('behavior: an order waiting is served before a routine read that arrived earlier', async () => {
    const b = budgetOf()
    const log: string[] = []
    await b.acquire(charge(50), 'order')
    await advance(10)
    const read = track(b.acquire(charge(37), 'routine'), 'routine', log)
    await advance(10)
    const order = track(b.acquire(charge(50), 'order'), 'order', log)
    await advance(0)
    // both wait for the room the first order holds; the read is not refused
    expect(read.state).toBe('pending')
    expect(order.state).toBe('pending')
    await advance(WINDOW - 20)
    expect(order.state).toBe('resolved')
    expect(order.at).toBe(T0 + WINDOW)
    // the order took the room; the read fits when the order leaves
    expect(read.state).toBe('pending')
    await advance(WINDOW)
    expect(read.state).toBe('resolved')
    expect(log).toEqual(['order', 'routine'])
  })

  test('behavior: a less urgent request is not given room a more urgent waiter needs', async () => {
    const b = budgetOf()
    const log: string[] = []
    await b.acquire(charge(40), 'order')
    const order = track(b.acquire(charge(20), 'order'), 'order', log)
    // 40 + 5 fits under urgent's 45, but the waiting order comes first
    const urgent = track(b.acquire(charge(5), 'urgent'), 'urgent', log)
    await advance(0)
    expect(order.state).toBe('pending')
    expect(urgent.state).toBe('pending')
    await advance(WINDOW)
    expect(log).toEqual(['order', 'urgent'])
    expect(b.usage()[0]?.used).toBe(25)
  })

  test('behavior: waiters of one priority are served in arrival order, none refused while its wait fits', async () => {
    const b = budgetOf()
    const log: string[] = []
    await b.acquire(charge(37), 'routine')
    const first = track(b.acquire(charge(30), 'routine'), 'first', log)
    const second = track(b.acquire(charge(30), 'routine'), 'second', log)
    await advance(0)
    expect(first.state).toBe('pending')
    expect(second.state).toBe('pending')
    await advance(WINDOW)
    expect(first.state).toBe('resolved')
    expect(second.state).toBe('pending')
    await advance(WINDOW)
    expect(second.state).toBe('resolved')
    expect(log).toEqual(['first', 'second'])
  })

  test('error: a budget still spent past maxWaitMs fails unsent, nothing counted', async () => {
    const b = budgetOf()
    await b.acquire(charge(50), 'order')
    const t = track(b.acquire(charge(1), 'routine', { maxWaitMs: 100 }))
    await advance(100)
    expect(t.state).toBe('rejected')
    expect(t.error).toBeInstanceOf(VenueUnavailableError)
    expect((t.error as Error).message).toMatch(
      /^hl: not sent, its routine request budget is spent/,
    )
    expect(b.usage()[0]).toMatchObject({ used: 50, requests: 1 })
  })

  test('error: a waiter whose room is taken while it waits fails at its deadline at the latest', async () => {
    const b = budgetOf()
    await b.acquire(charge(50), 'order')
    const t = track(b.acquire(charge(1), 'routine', { maxWaitMs: 1_200 }))
    await advance(500)
    // another process spent weight on the same IP meanwhile
    b.observe('weight', 'weight', 100)
    await advance(WINDOW - 501)
    expect(t.state).toBe('pending')
    await advance(700)
    expect(t.state).toBe('rejected')
    expect(t.at).toBeLessThanOrEqual(T0 + 1_200)
    expect((t.error as Error).message).toMatch(
      /routine request budget is spent/,
    )
    expect(b.usage()[0]?.requests).toBe(1)
  })

  test('default: maxWaitMs defaults by priority (routine gives up where an order waits)', async () => {
    const b = budgetOf({
      limits: [{ id: 'weight', capacity: 100, windowMs: 8_000 }],
    })
    await b.acquire(charge(50), 'order')
    const read = track(b.acquire(charge(1), 'routine'))
    const order = track(b.acquire(charge(1), 'order'))
    await advance(0)
    expect(read.state).toBe('rejected')
    expect(order.state).toBe('pending')
    await advance(8_000)
    expect(order.state).toBe('resolved')
  })

  describe('interactive: a read an HTTP caller waits on', () => {
    /** a budget of a minute's window, full to the interactive ceiling */
    async function fullMinute() {
      const b = budgetOf({
        limits: [{ id: 'weight', capacity: 100, windowMs: 60_000 }],
      })
      await b.acquire(charge(45), 'order')
      return b
    }

    test('default: room within INTERACTIVE_MAX_WAIT_MS (5 s) is waited for', async () => {
      expect(INTERACTIVE_MAX_WAIT_MS).toBe(5_000)
      const b = await fullMinute()
      await advance(60_000 - INTERACTIVE_MAX_WAIT_MS)
      const t = track(b.acquire(charge(1), 'interactive'))
      await advance(INTERACTIVE_MAX_WAIT_MS - 1)
      expect(t.state).toBe('pending')
      await advance(1)
      expect(t.state).toBe('resolved')
      expect(t.at).toBe(T0 + 60_000)
    })

    test('error: room past the bound is refused at once, saying when it comes', async () => {
      const b = await fullMinute()
      await advance(60_000 - INTERACTIVE_MAX_WAIT_MS - 1)
      const t = track(b.acquire(charge(1), 'interactive'))
      await advance(0)
      expect(t.state).toBe('rejected')
      expect(t.at).toBe(T0 + 60_000 - INTERACTIVE_MAX_WAIT_MS - 1)
      expect(t.error).toBeInstanceOf(RequestBudgetError)
      expect((t.error as RequestBudgetError).retryAfterMs).toBe(
        INTERACTIVE_MAX_WAIT_MS + 1,
      )
      expect((t.error as Error).message).toMatch(
        /^hl: not sent, its interactive request budget is spent/,
      )
      expect(b.usage()[0]).toMatchObject({ used: 45, requests: 1 })
    })

    test('error: a waiter whose room is taken fails at the bound, with when room comes', async () => {
      const b = await fullMinute()
      await advance(60_000 - 1_000)
      const t = track(b.acquire(charge(1), 'interactive'))
      // another process spent weight on the same IP meanwhile
      b.observe('weight', 'weight', 100)
      await advance(INTERACTIVE_MAX_WAIT_MS)
      expect(t.state).toBe('rejected')
      // when the first 45 left, the 55 observed still held the room
      expect(t.at).toBe(T0 + 60_000)
      expect((t.error as RequestBudgetError).retryAfterMs).toBe(59_000)
    })

    test('behavior: served after an urgent waiter, before a routine one', async () => {
      const b = budgetOf()
      const log: string[] = []
      await b.acquire(charge(45), 'order')
      track(b.acquire(charge(20), 'routine'), 'routine', log)
      track(b.acquire(charge(20), 'interactive'), 'interactive', log)
      track(b.acquire(charge(20), 'urgent'), 'urgent', log)
      await advance(WINDOW)
      expect(log).toEqual(['urgent', 'interactive'])
      await advance(WINDOW)
      expect(log).toEqual(['urgent', 'interactive', 'routine'])
    })
  })

  test('behavior: holdOff makes an acquire wait, and heldOff reports it', async () => {
    const b = budgetOf()
    expect(b.heldOff()).toBeNull()
    b.holdOff(300, 'HTTP 429')
    expect(b.heldOff()).toEqual({ until: T0 + 300, reason: 'HTTP 429' })
    const order = track(b.acquire(charge(1), 'order'))
    await advance(299)
    expect(order.state).toBe('pending')
    expect(b.heldOff()).not.toBeNull()
    expect(b.usage()).toEqual([
      expect.objectContaining({ used: 0, requests: 0 }),
    ])
    await advance(1)
    expect(order.state).toBe('resolved')
    expect(order.at).toBe(T0 + 300)
    expect(b.heldOff()).toBeNull()
  })

  test('behavior: holdOff makes every acquire wait, not only the first', async () => {
    const b = budgetOf()
    b.holdOff(300, 'HTTP 429')
    const order = track(b.acquire(charge(1), 'order'))
    const read = track(b.acquire(charge(1), 'routine'))
    const another = track(b.acquire(charge(1), 'order'))
    await advance(299)
    expect([order.state, read.state, another.state]).toEqual([
      'pending',
      'pending',
      'pending',
    ])
    await advance(1)
    expect([order.state, read.state, another.state]).toEqual([
      'resolved',
      'resolved',
      'resolved',
    ])
  })

  test('error: a hold longer than maxWaitMs fails naming the back-off', async () => {
    const b = budgetOf()
    b.holdOff(2_500, 'HTTP 418')
    const t = track(b.acquire(charge(1), 'order', { maxWaitMs: 100 }))
    await advance(0)
    expect(t.state).toBe('rejected')
    expect(t.error).toBeInstanceOf(VenueUnavailableError)
    expect((t.error as Error).message).toBe(
      'hl: not sent, the venue asked us to back off (HTTP 418) for 3 s; retrying later',
    )
    expect(b.usage()).toEqual([
      expect.objectContaining({ used: 0, requests: 0 }),
    ])
  })

  test('behavior: a hold set while a request waits fails it when it outlasts the deadline', async () => {
    const b = budgetOf()
    await b.acquire(charge(50), 'order')
    const t = track(b.acquire(charge(1), 'order', { maxWaitMs: 2_000 }))
    await advance(10)
    expect(t.state).toBe('pending')
    b.holdOff(5_000, 'HTTP 429')
    await advance(0)
    expect(t.state).toBe('rejected')
    expect((t.error as Error).message).toMatch(/back off \(HTTP 429\)/)
  })

  test('behavior: a shorter hold never cuts a longer one short', () => {
    const b = budgetOf()
    b.holdOff(1_000, 'first')
    b.holdOff(100, 'second')
    expect(b.heldOff()).toEqual({ until: T0 + 1_000, reason: 'first' })
    b.holdOff(2_000, 'third')
    expect(b.heldOff()).toEqual({ until: T0 + 2_000, reason: 'third' })
  })

  test('behavior: observe counts weight the venue reports beyond ours', async () => {
    const b = budgetOf()
    await b.acquire(charge(10), 'order')
    b.observe('weight', 'weight', 45)
    expect(b.usage()[0]).toMatchObject({ used: 45, peak: 45, requests: 1 })
    // less than ours adds nothing
    b.observe('weight', 'weight', 20)
    expect(b.usage()[0]?.used).toBe(45)
    await b.acquire(charge(5), 'order')
    const t = track(b.acquire(charge(1), 'order', { maxWaitMs: 10 }))
    await advance(0)
    expect(t.state).toBe('rejected')
    // the observed weight leaves the window like ours
    await advance(WINDOW)
    expect(b.usage()[0]?.used).toBe(0)
  })

  test('behavior: observe on a bucket not used yet creates it', () => {
    const b = budgetOf()
    b.observe('weight', 'ip', 30)
    expect(b.usage()).toEqual([
      {
        limit: 'weight',
        bucket: 'ip',
        used: 30,
        peak: 30,
        ceiling: 50,
        requests: 0,
      },
    ])
  })

  test('behavior: add counts weight learnt from an answer', async () => {
    const b = budgetOf()
    await b.acquire(charge(20), 'routine')
    b.add(charge(17))
    expect(b.usage()[0]).toMatchObject({ used: 37, requests: 2 })
    const t = track(b.acquire(charge(1), 'routine'))
    await advance(0)
    expect(t.state).toBe('pending')
  })

  test('behavior: setLimits replaces a limit and wakes the waiters it now admits', async () => {
    const b = budgetOf()
    await b.acquire(charge(50), 'order')
    const t = track(b.acquire(charge(40), 'order'))
    await advance(0)
    expect(t.state).toBe('pending')
    b.setLimits([{ id: 'weight', capacity: 200, windowMs: WINDOW }])
    await advance(0)
    expect(t.state).toBe('resolved')
    expect(b.limits()).toEqual([
      { id: 'weight', capacity: 200, windowMs: WINDOW },
    ])
    expect(b.usage()[0]).toMatchObject({ used: 90, ceiling: 100 })
  })

  test('behavior: setLimits can shrink a limit and add new ones', async () => {
    const b = budgetOf()
    await b.acquire(charge(30), 'order')
    b.setLimits([
      { id: 'weight', capacity: 40, windowMs: WINDOW },
      { id: 'orders', capacity: 10, windowMs: 100 },
    ])
    const t = track(b.acquire(charge(1), 'order', { maxWaitMs: 10 }))
    await advance(0)
    expect(t.state).toBe('rejected')
    await b.acquire([{ limit: 'orders', bucket: 'orders', weight: 5 }], 'order')
    expect(b.limits().map((l) => l.id)).toEqual(['weight', 'orders'])
  })

  test('behavior: usage reports used, peak, ceiling and requests per bucket', async () => {
    const b = budgetOf()
    await b.acquire(charge(10, 'a'), 'order')
    await b.acquire(charge(15, 'a'), 'routine')
    await advance(600)
    await b.acquire(charge(5, 'a'), 'order')
    expect(b.usage()).toEqual([
      {
        limit: 'weight',
        bucket: 'a',
        used: 30,
        peak: 30,
        ceiling: 50,
        requests: 3,
      },
    ])
    await advance(400)
    // the first two left the window; the peak stays
    expect(b.usage()).toEqual([
      {
        limit: 'weight',
        bucket: 'a',
        used: 5,
        peak: 30,
        ceiling: 50,
        requests: 3,
      },
    ])
  })

  test('behavior: separate buckets (per account) do not block each other', async () => {
    const b = budgetOf()
    await b.acquire(charge(50, 'weight|0xa'), 'order')
    const blocked = track(b.acquire(charge(1, 'weight|0xa'), 'order'))
    const other = track(b.acquire(charge(50, 'weight|0xb'), 'order'))
    await advance(0)
    expect(blocked.state).toBe('pending')
    expect(other.state).toBe('resolved')
    expect(b.usage().map((u) => [u.bucket, u.used])).toEqual([
      ['weight|0xa', 50],
      ['weight|0xb', 50],
    ])
  })

  test('behavior: a request charging several buckets waits for all and counts in each', async () => {
    const b = createRequestBudget({
      name: 'aster',
      limits: [
        { id: 'weight', capacity: 100, windowMs: WINDOW },
        { id: 'orders', capacity: 4, windowMs: 200 },
      ],
      clock,
      deliveryMarginMs: 0,
    })
    const both: BudgetCharge[] = [
      { limit: 'weight', bucket: 'weight', weight: 1 },
      { limit: 'orders', bucket: 'orders|0xa', weight: 1 },
    ]
    await b.acquire(both, 'order')
    await b.acquire(both, 'order')
    const third = track(b.acquire(both, 'order'))
    await advance(0)
    expect(third.state).toBe('pending')
    await advance(200)
    expect(third.state).toBe('resolved')
    expect(b.usage().map((u) => [u.bucket, u.requests])).toEqual([
      ['weight', 3],
      ['orders|0xa', 3],
    ])
  })

  test('error: an unknown limit id is a RangeError', async () => {
    const b = budgetOf()
    const bad = [{ limit: 'nope', bucket: 'nope', weight: 1 }]
    await expect(b.acquire(bad, 'order')).rejects.toBeInstanceOf(RangeError)
    await expect(b.acquire(bad, 'order')).rejects.toThrow(
      'hl: unknown limit nope',
    )
    expect(() => b.add(bad)).toThrow(RangeError)
    expect(() => b.observe('nope', 'nope', 1)).toThrow(RangeError)
  })

  test('behavior: a refused unknown-limit request does not break later requests', async () => {
    const b = budgetOf()
    const bad = [{ limit: 'nope', bucket: 'nope', weight: 1 }]
    await expect(b.acquire(bad, 'order')).rejects.toBeInstanceOf(RangeError)
    await expect(b.acquire(charge(1), 'order')).resolves.toBeUndefined()
    expect(b.usage()).toEqual([
      expect.objectContaining({ bucket: 'weight', used: 1, requests: 1 }),
    ])
  })

  test('behavior: a refused unknown-limit request does not strand a waiting one', async () => {
    const b = budgetOf()
    await b.acquire(charge(50), 'order')
    const waiting = track(b.acquire(charge(10), 'order'))
    const bad = [{ limit: 'nope', bucket: 'nope', weight: 1 }]
    await expect(b.acquire(bad, 'order')).rejects.toBeInstanceOf(RangeError)
    await advance(WINDOW)
    expect(waiting.state).toBe('resolved')
  })

  test('property: accepted weight in any window never exceeds floor(capacity × share)', async () => {
    const op = fc.record({
      dt: fc.integer({ min: 0, max: 400 }),
      priority: fc.constantFrom(...REQUEST_PRIORITIES),
      bucket: fc.constantFrom('a', 'b'),
      both: fc.boolean(),
      weight: fc.integer({ min: 0, max: 60 }),
      maxWaitMs: fc.integer({ min: 0, max: 3_000 }),
      holdMs: fc.option(fc.integer({ min: 1, max: 500 }), { freq: 8 }),
    })
    let total = 0
    let waited = 0
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 200 }),
        fc.double({ min: 0.05, max: 1, noNaN: true }),
        fc.integer({ min: 50, max: 1_000 }),
        fc.array(op, { minLength: 1, maxLength: 40 }),
        async (capacity, share, windowMs, ops) => {
          vi.clearAllTimers()
          vi.setSystemTime(T0)
          const b = createRequestBudget({
            name: 'p',
            limits: [{ id: 'weight', capacity, windowMs }],
            share,
            clock,
            deliveryMarginMs: 0,
          })
          const accepted: { at: number; bucket: string; weight: number }[] = []
          for (const o of ops) {
            await advance(o.dt)
            if (o.holdMs !== null) b.holdOff(o.holdMs, 'HTTP 429')
            const charges: BudgetCharge[] = [
              { limit: 'weight', bucket: o.bucket, weight: o.weight },
            ]
            if (o.both) {
              charges.push({
                limit: 'weight',
                bucket: o.bucket === 'a' ? 'b' : 'a',
                weight: Math.ceil(o.weight / 2),
              })
            }
            const asked = Date.now()
            b.acquire(charges, o.priority, { maxWaitMs: o.maxWaitMs }).then(
              () => {
                total++
                if (Date.now() > asked) waited++
                for (const c of charges) {
                  accepted.push({
                    at: Date.now(),
                    bucket: c.bucket,
                    weight: c.weight,
                  })
                }
              },
              () => {},
            )
          }
          await advance(10_000)
          const cap = Math.floor(capacity * share)
          for (const end of accepted) {
            for (const bucket of ['a', 'b']) {
              const inWindow = accepted
                .filter(
                  (e) =>
                    e.bucket === bucket &&
                    e.at > end.at - windowMs &&
                    e.at <= end.at,
                )
                .reduce((s, e) => s + e.weight, 0)
              expect(inWindow).toBeLessThanOrEqual(cap)
            }
          }
          // and the budget's own count agrees with what was accepted
          for (const u of b.usage()) {
            const mine = accepted.filter((e) => e.bucket === u.bucket).length
            expect(u.requests).toBe(mine)
            expect(u.peak).toBeLessThanOrEqual(cap)
          }
        },
      ),
      { numRuns: 150 },
    )
    // the schedules exercised both admission at once and after waiting
    expect(total).toBeGreaterThan(100)
    expect(waited).toBeGreaterThan(10)
  })
})

describe('createRequestBudget: a venue refusal is reported', () => {
  test('behavior: holdOff tells onHoldOff the budget, how long and why', () => {
    const events: unknown[] = []
    const budget = createRequestBudget({
      name: 'aster',
      limits: [{ id: 'REQUEST_WEIGHT', capacity: 100, windowMs: 60_000 }],
      onHoldOff: (e) => events.push(e),
    })
    budget.holdOff(120_000, 'HTTP 418')
    expect(events).toEqual([
      { name: 'aster', forMs: 120_000, reason: 'HTTP 418' },
    ])
    expect(budget.heldOff()?.reason).toBe('HTTP 418')
  })
})
