import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import type { PublishedLimit } from '../wire/requestCharge.js'
import { createFakeRateLimits } from './fakeRateLimits.js'

const WEIGHT: PublishedLimit = {
  id: 'weight',
  capacity: 10,
  windowMs: 1000,
  per: 'ip',
}
const ORDERS: PublishedLimit = {
  id: 'orders',
  capacity: 2,
  windowMs: 1000,
  per: 'account',
}

function clock(start = 0) {
  let t = start
  return { now: () => t, set: (v: number) => (t = v) }
}

describe('createFakeRateLimits', () => {
  test('default: sliding log, refuses past capacity until the oldest leaves', () => {
    const c = clock(100)
    const rl = createFakeRateLimits([WEIGHT], c.now)
    const w = (weight: number) => [{ limit: 'weight', weight }]
    expect(rl.charge('a', w(6))).toMatchObject({ ok: true })
    c.set(600)
    const second = rl.charge('a', w(4))
    expect(second.ok).toBe(true)
    expect(second.used.get('weight')).toBe(10)
    c.set(700)
    expect(rl.charge('a', w(1))).toMatchObject({
      ok: false,
      limit: WEIGHT,
      retryAfterMs: 400, // the 6 at 100 leaves at 1100
    })
    c.set(1100)
    expect(rl.charge('a', w(6)).ok).toBe(true)
  })

  test('behavior: per-IP buckets are separate; per-account ones by account', () => {
    const c = clock()
    const rl = createFakeRateLimits([WEIGHT, ORDERS], c.now)
    expect(rl.charge('a', [{ limit: 'weight', weight: 10 }]).ok).toBe(true)
    expect(rl.charge('b', [{ limit: 'weight', weight: 10 }]).ok).toBe(true)
    const order = (account: string) => [
      { limit: 'weight', weight: 0 },
      { limit: 'orders', weight: 1, account },
    ]
    expect(rl.charge('c', order('x')).ok).toBe(true)
    expect(rl.charge('d', order('x')).ok).toBe(true)
    expect(rl.charge('c', order('x')).ok).toBe(false)
    expect(rl.charge('c', order('y')).ok).toBe(true)
  })

  test('behavior: a request counts in every bucket or in none', () => {
    const c = clock()
    const rl = createFakeRateLimits([WEIGHT, ORDERS], c.now)
    const req = [
      { limit: 'weight', weight: 3 },
      { limit: 'orders', weight: 1, account: 'x' },
    ]
    rl.charge('a', req)
    rl.charge('a', req)
    const refused = rl.charge('a', req)
    expect(refused).toMatchObject({ ok: false, limit: ORDERS })
    expect(rl.used('a', 'weight')).toBe(6)
    expect(rl.used('a', 'orders', 'x')).toBe(2)
    const weight = rl.usage().find((u) => u.limit === 'weight')
    expect(weight).toMatchObject({ requests: 2, refused: 0, weight: 6 })
    expect(rl.usage().find((u) => u.limit === 'orders')).toMatchObject({
      subject: 'x',
      refused: 1,
    })
  })

  test('behavior: answer-time extras may push over; what follows is refused', () => {
    const c = clock()
    const rl = createFakeRateLimits([WEIGHT], c.now)
    rl.charge('a', [{ limit: 'weight', weight: 8 }])
    rl.addCharges('a', [{ limit: 'weight', weight: 5 }])
    expect(rl.used('a', 'weight')).toBe(13)
    expect(rl.charge('a', [{ limit: 'weight', weight: 1 }]).ok).toBe(false)
    expect(rl.usage()[0]).toMatchObject({ peak: 13, requests: 1, refused: 1 })
  })

  test('behavior: fixed windows reset at the calendar boundary', () => {
    const c = clock(900)
    const rl = createFakeRateLimits([WEIGHT], c.now, { window: 'fixed' })
    expect(rl.charge('a', [{ limit: 'weight', weight: 10 }]).ok).toBe(true)
    expect(rl.charge('a', [{ limit: 'weight', weight: 1 }])).toMatchObject({
      ok: false,
      retryAfterMs: 100,
    })
    c.set(1000)
    expect(rl.charge('a', [{ limit: 'weight', weight: 10 }]).ok).toBe(true)
  })

  test('behavior: enforce false only measures, the peak shows the excess', () => {
    const c = clock()
    const rl = createFakeRateLimits([WEIGHT], c.now, { enforce: false })
    for (let i = 0; i < 3; i++) {
      expect(rl.charge('a', [{ limit: 'weight', weight: 5 }]).ok).toBe(true)
    }
    expect(rl.usage()[0]).toMatchObject({ peak: 15, refused: 0, requests: 3 })
  })

  test('error: unknown limit, per-account limit without account', () => {
    const rl = createFakeRateLimits([WEIGHT, ORDERS], () => 0)
    expect(() => rl.charge('a', [{ limit: 'nope', weight: 1 }])).toThrow(
      RangeError,
    )
    expect(() => rl.charge('a', [{ limit: 'orders', weight: 1 }])).toThrow(
      RangeError,
    )
  })

  test('property: no window ever holds more accepted weight than capacity', () => {
    const step = fc.record({
      dt: fc.integer({ min: 0, max: 400 }),
      weight: fc.integer({ min: 0, max: 12 }),
      ip: fc.constantFrom('a', 'b'),
    })
    for (const window of ['sliding', 'fixed'] as const) {
      fc.assert(
        fc.property(fc.array(step, { maxLength: 80 }), (steps) => {
          const c = clock()
          const rl = createFakeRateLimits([WEIGHT], c.now, { window })
          const accepted: { ip: string; at: number; weight: number }[] = []
          let t = 0
          for (const s of steps) {
            t += s.dt
            c.set(t)
            const r = rl.charge(s.ip, [{ limit: 'weight', weight: s.weight }])
            if (r.ok) accepted.push({ ip: s.ip, at: t, weight: s.weight })
          }
          for (const end of accepted) {
            for (const ip of ['a', 'b']) {
              const start =
                window === 'fixed'
                  ? Math.floor(end.at / 1000) * 1000 - 1
                  : end.at - 1000
              const held = accepted
                .filter((e) => e.ip === ip && e.at > start && e.at <= end.at)
                .reduce((sum, e) => sum + e.weight, 0)
              expect(held).toBeLessThanOrEqual(WEIGHT.capacity)
            }
          }
          for (const u of rl.usage()) {
            expect(u.peak).toBeLessThanOrEqual(WEIGHT.capacity)
          }
        }),
      )
    }
  })
})
