import { describe, expect, test } from 'vitest'
import { ecgfp5Scalar as sc } from './ecgfp5Scalar.js'

describe('ecgfp5Scalar', () => {
  test('default: 40-byte little-endian encoding round-trips', () => {
    const k = sc.N - 12345n
    const bytes = sc.toBytes(k)
    expect(bytes.length).toBe(40)
    expect(sc.fromBytes(bytes)).toBe(k)
    expect(sc.toBytes(1n)[0]).toBe(1)
    expect(() => sc.fromBytes(new Uint8Array(32))).toThrow(RangeError)
  })

  test('behavior: fromLimbs / fromFp5 read five u64 limbs LE mod n', () => {
    expect(sc.fromLimbs([1n, 2n])).toBe(1n + (2n << 64n))
    const max = 2n ** 64n - 1n
    const all = sc.fromFp5([max, max, max, max, max])
    expect(all).toBe((2n ** 320n - 1n) % sc.N)
  })

  test('behavior: add/sub/mul are mod n', () => {
    expect(sc.add(sc.N - 1n, 2n)).toBe(1n)
    expect(sc.sub(1n, 2n)).toBe(sc.N - 1n)
    expect(sc.mul(sc.N - 1n, sc.N - 1n)).toBe(1n)
  })

  test('behavior: random covers the full range below n', () => {
    const draws = Array.from({ length: 64 }, () => sc.random())
    for (const k of draws) expect(k > 0n && k < sc.N).toBe(true)
    // each draw is >= 2^312 with probability ~127/128: a generator that
    // lost its top byte (or most bits) would fail here
    expect(draws.some((k) => k >= 2n ** 312n)).toBe(true)
    expect(new Set(draws).size).toBe(draws.length)
  })
})
