import { describe, expect, test } from 'vitest'
import { goldilocks as g } from './goldilocks.js'
import data from './lighterCryptoData.json' with { type: 'json' }

const P = g.P

describe('goldilocks', () => {
  test('default: p matches the data file', () => {
    expect(P).toBe(BigInt(data.goldilocks_p))
    expect(P).toBe(2n ** 64n - 2n ** 32n + 1n)
  })

  test('behavior: add, sub, neg wrap around p', () => {
    expect(g.add(P - 1n, 2n)).toBe(1n)
    expect(g.sub(1n, 2n)).toBe(P - 1n)
    expect(g.neg(0n)).toBe(0n)
    expect(g.neg(5n)).toBe(P - 5n)
    expect(g.add(g.neg(123n), 123n)).toBe(0n)
  })

  test('behavior: mul reduces (2^32)^2 = 2^32 - 1 mod p', () => {
    // 2^64 = 2^32 - 1 (mod p), the identity the field is chosen for
    expect(g.mul(2n ** 32n, 2n ** 32n)).toBe(2n ** 32n - 1n)
    expect(g.mul(P - 1n, P - 1n)).toBe(1n)
  })

  test('behavior: inverse', () => {
    for (const a of [1n, 2n, 7n, P - 1n, 0x1234_5678_9abc_def0n]) {
      expect(g.mul(a, g.inverse(a))).toBe(1n)
    }
    expect(g.inverse(0n)).toBe(0n)
  })

  test('behavior: sqrt finds roots and rejects non-squares', () => {
    for (const a of [4n, 9n, 0xdead_beefn, P - 1n]) {
      const sq = g.mul(a, a)
      const r = g.sqrt(sq)
      expect(r).not.toBeNull()
      expect(g.mul(r ?? 0n, r ?? 0n)).toBe(sq)
    }
    // 7 generates the multiplicative group, so it is not a square
    expect(g.legendre(7n)).toBe(-1)
    expect(g.sqrt(7n)).toBeNull()
    expect(g.sqrt(0n)).toBe(0n)
  })

  test('behavior: canonical little-endian bytes round-trip', () => {
    const a = 0x0102_0304_0506_0708n
    expect([...g.toBytes(a)]).toEqual([8, 7, 6, 5, 4, 3, 2, 1])
    expect(g.fromBytes(g.toBytes(a))).toBe(a)
    // a non-canonical u64 (>= p) decodes to the same element mod p
    const nonCanonical = new Uint8Array(8).fill(0xff)
    expect(g.fromBytes(nonCanonical)).toBe(2n ** 64n - 1n - P)
    expect([...g.toBytes(P)]).toEqual([0, 0, 0, 0, 0, 0, 0, 0])
  })

  test('behavior: fromInteger wraps negatives like Go int64 -> u64', () => {
    expect(g.fromInteger(-1)).toBe((2n ** 64n - 1n) % P)
    expect(g.fromInteger(1700000600000)).toBe(1700000600000n)
  })
})
