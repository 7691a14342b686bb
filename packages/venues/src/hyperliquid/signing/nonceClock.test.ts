import { describe, expect, test } from 'vitest'
import { createNonceClock } from './nonceClock.js'

describe('createNonceClock', () => {
  test('default: returns the clock time when it advances', () => {
    let t = 1000
    const nonces = createNonceClock({ now: () => t })
    expect(nonces.next()).toBe(1000)
    t = 1005
    expect(nonces.next()).toBe(1005)
    expect(nonces.last()).toBe(1005)
  })

  test('behavior: 10,000 calls in one millisecond stay strictly increasing', () => {
    const nonces = createNonceClock({ now: () => 1700000000000 })
    let prev = 0
    for (let i = 0; i < 10_000; i++) {
      const n = nonces.next()
      expect(n).toBeGreaterThan(prev)
      prev = n
    }
    expect(prev).toBe(1700000000000 + 9_999)
  })

  test('behavior: bursts with a clock that stalls and steps back', () => {
    const times = [5, 5, 5, 4, 3, 10, 10, 9, 20, 20]
    let i = 0
    const nonces = createNonceClock({
      now: () => times[i++ % times.length] ?? 0,
    })
    const out = Array.from({ length: 1000 }, () => nonces.next())
    for (let k = 1; k < out.length; k++) {
      expect(out[k]).toBeGreaterThan(out[k - 1] ?? 0)
    }
    expect(out.slice(0, 10)).toEqual([5, 6, 7, 8, 9, 10, 11, 12, 20, 21])
  })

  test('behavior: floor starts above a persisted nonce', () => {
    const nonces = createNonceClock({ now: () => 100 }, { floor: 500 })
    expect(nonces.last()).toBe(500)
    expect(nonces.next()).toBe(501)
  })

  test('error: bad floor or clock', () => {
    expect(() => createNonceClock({ now: () => 1 }, { floor: -1 })).toThrow(
      RangeError,
    )
    expect(() => createNonceClock({ now: () => 1.5 }).next()).toThrow(
      RangeError,
    )
  })
})
