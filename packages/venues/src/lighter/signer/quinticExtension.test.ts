import { describe, expect, test } from 'vitest'
import { goldilocks } from './goldilocks.js'
import data from './lighterCryptoData.json' with { type: 'json' }
import { type Fp5, quinticExtension as f } from './quinticExtension.js'

const a = f.fromLimbs([
  12883135586176881569n,
  4356519642755055268n,
  5248930565894896907n,
  2165973894480315022n,
  2448410071095648785n,
])
const b = f.fromLimbs([3, 1, 4, 1, 5])
const X = f.fromLimbs([0, 1])

/** Reference: the naive polynomial product mod X^5 - 3. */
function naiveMul(x: Fp5, y: Fp5): Fp5 {
  const c = new Array<bigint>(9).fill(0n)
  for (let i = 0; i < 5; i++) {
    for (let j = 0; j < 5; j++) {
      c[i + j] = (c[i + j] ?? 0n) + (x[i] ?? 0n) * (y[j] ?? 0n)
    }
  }
  for (let k = 8; k >= 5; k--) {
    c[k - 5] = (c[k - 5] ?? 0n) + 3n * (c[k] ?? 0n)
  }
  return f.fromLimbs(c.slice(0, 5))
}

describe('quinticExtension', () => {
  test('default: the modulus is X^5 - 3 (W = 3)', () => {
    expect(data.fp5.W).toBe('3')
    expect(f.pow(X, 5n)).toEqual(f.fromLimbs([3]))
  })

  test('behavior: mul matches the naive polynomial product', () => {
    expect(f.mul(a, b)).toEqual(naiveMul(a, b))
    expect(f.square(a)).toEqual(naiveMul(a, a))
  })

  test('behavior: add/sub/neg', () => {
    expect(f.sub(f.add(a, b), b)).toEqual(a)
    expect(f.add(a, f.neg(a))).toEqual(f.ZERO)
    expect(f.double(b)).toEqual(f.fromLimbs([6, 2, 8, 2, 10]))
  })

  test('behavior: frobenius is the p-th power map', () => {
    expect(f.frobenius(a)).toEqual(f.pow(a, goldilocks.P))
    expect(f.frobenius(a, 5)).toEqual(a)
  })

  test('behavior: inverse', () => {
    expect(f.mul(a, f.inverse(a))).toEqual(f.ONE)
    expect(f.mul(b, f.inverse(b))).toEqual(f.ONE)
    expect(f.inverse(f.ZERO)).toEqual(f.ZERO)
  })

  test('behavior: norm lies in Fp and sqrt inverts squaring', () => {
    expect(f.norm(a)).toBe(
      f.pow(a, (goldilocks.P ** 5n - 1n) / (goldilocks.P - 1n))[0],
    )
    const sq = f.square(a)
    expect(f.legendre(sq)).toBe(1)
    const r = f.sqrt(sq)
    expect(r).not.toBeNull()
    expect(f.square(r ?? f.ZERO)).toEqual(sq)
    // norm(7 s^2) = 7^5 norm(s)^2, a non-square because 7 is one in Fp
    const nonSquare = f.scale(sq, 7n)
    expect(f.legendre(nonSquare)).toBe(-1)
    expect(f.sqrt(nonSquare)).toBeNull()
  })

  test('behavior: 40-byte little-endian encoding', () => {
    const bytes = f.toBytes(b)
    expect(bytes.length).toBe(40)
    expect(bytes[0]).toBe(3)
    expect(bytes[8]).toBe(1)
    expect(bytes[32]).toBe(5)
    expect(f.fromBytes(bytes)).toEqual(b)
    expect(f.toHex(b).slice(0, 18)).toBe('030000000000000001')
    expect(() => f.fromBytes(new Uint8Array(39))).toThrow(RangeError)
  })
})
