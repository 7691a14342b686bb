import { dec } from '@dn/core'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { formatHlPrice, isValidHlPrice } from './formatHlPrice.js'
import { formatHlSize } from './formatHlSize.js'

/*
 * Independent reference of the documented rule (docs `tick-and-lot-size`):
 * a decimal is (m: bigint, sc) = m / 10^sc; a price is valid when positive,
 * with at most maxDec decimals and at most 5 significant figures unless an
 * integer. Rounding 'down' = the largest valid price ≤ p, 'up' = the
 * smallest ≥ p, picked from all truncations of p by decimals and by
 * significant figures.
 */
type Dec = readonly [bigint, number]

const pow10 = (n: number): bigint => 10n ** BigInt(n)

function normalize([m, sc]: Dec): Dec {
  let mm = m
  let s = sc
  while (s > 0 && mm % 10n === 0n) {
    mm /= 10n
    s--
  }
  return [mm, s]
}

function render(d: Dec): string {
  const [m, sc] = normalize(d)
  if (sc === 0) return m.toString()
  const digits = m.toString().padStart(sc + 1, '0')
  return `${digits.slice(0, -sc)}.${digits.slice(-sc)}`
}

function cmp([a, sa]: Dec, [b, sb]: Dec): number {
  const x = a * pow10(sb)
  const y = b * pow10(sa)
  return x < y ? -1 : x > y ? 1 : 0
}

function toDecimals([m, sc]: Dec, d: number, up: boolean): Dec {
  if (sc <= d) return [m, sc]
  const q = pow10(sc - d)
  return [m / q + (up && m % q !== 0n ? 1n : 0n), d]
}

function toSigFigs([m, sc]: Dec, k: number, up: boolean): Dec {
  const drop = m.toString().length - k
  if (drop <= 0) return [m, sc]
  const q = pow10(drop)
  return [(m / q + (up && m % q !== 0n ? 1n : 0n)) * q, sc]
}

function refValid(d: Dec, maxDec: number): boolean {
  const [m, sc] = normalize(d)
  if (m <= 0n || sc > maxDec) return false
  return sc === 0 || m.toString().length <= 5
}

function refMaxDec(szDecimals: number, kind: 'perp' | 'spot'): number {
  return Math.max((kind === 'spot' ? 8 : 6) - szDecimals, 0)
}

function refPrice(p: Dec, maxDec: number, up: boolean): string | null {
  const candidates: Dec[] = []
  for (let d = 0; d <= maxDec; d++) candidates.push(toDecimals(p, d, up))
  for (let k = 1; k <= 5; k++) candidates.push(toSigFigs(p, k, up))
  let best: Dec | null = null
  for (const c of candidates) {
    if (!refValid(c, maxDec)) continue
    if (best === null || (up ? cmp(c, best) < 0 : cmp(c, best) > 0)) best = c
  }
  return best === null ? null : render(best)
}

/** a decimal string with possible trailing zeros, e.g. '0012.3400' → no */
const decimalArb = fc
  .tuple(
    fc.bigInt({ min: 1n, max: 10n ** 14n }),
    fc.integer({ min: 0, max: 14 }),
  )
  .map(([m, sc]): Dec => [m, sc])

const rawString = ([m, sc]: Dec): string => {
  if (sc === 0) return m.toString()
  const digits = m.toString().padStart(sc + 1, '0')
  return `${digits.slice(0, -sc)}.${digits.slice(-sc)}` // may end in 0
}

describe('formatHlPrice / formatHlSize / isValidHlPrice', () => {
  test('property: 10,000 cases agree with the BigInt reference', () => {
    fc.assert(
      fc.property(
        decimalArb,
        decimalArb,
        fc.integer({ min: 0, max: 8 }),
        fc.constantFrom('perp' as const, 'spot' as const),
        fc.constantFrom('down' as const, 'up' as const),
        (price, size, szDecimals, kind, rounding) => {
          const maxDec = refMaxDec(szDecimals, kind)
          const input = rawString(price)
          const expected = refPrice(price, maxDec, rounding === 'up')
          if (expected === null) {
            expect(() =>
              formatHlPrice(input, szDecimals, { kind, rounding }),
            ).toThrow(RangeError)
          } else {
            const got = formatHlPrice(input, szDecimals, { kind, rounding })
            expect(got).toBe(expected)
            expect(isValidHlPrice(got, szDecimals, kind)).toBe(true)
          }
          expect(isValidHlPrice(input, szDecimals, kind)).toBe(
            refValid(price, maxDec),
          )
          expect(formatHlSize(rawString(size), szDecimals)).toBe(
            render(toDecimals(size, szDecimals, false)),
          )
        },
      ),
      { numRuns: 10_000 },
    )
  })

  test('default: documented examples', () => {
    expect(formatHlPrice('1670.1', 4)).toBe('1670.1')
    expect(formatHlPrice('1670.123', 4)).toBe('1670.1')
    expect(formatHlPrice('100.0', 0)).toBe('100')
    expect(formatHlPrice('123456.7', 0)).toBe('123456')
    expect(formatHlPrice('123456.7', 0, { rounding: 'up' })).toBe('123457')
    expect(formatHlPrice('12345.67', 0)).toBe('12345')
    expect(formatHlPrice('1.234567', 0)).toBe('1.2345')
    expect(formatHlPrice('1.234567', 0, { rounding: 'up' })).toBe('1.2346')
    expect(formatHlPrice('0.000123456', 0)).toBe('0.000123')
    expect(formatHlPrice('0.000123456', 0, { kind: 'spot' })).toBe('0.00012345')
    expect(formatHlPrice('9.999999', 1, { rounding: 'up' })).toBe('10')
    expect(formatHlPrice(dec('2e3'), 2)).toBe('2000')
    expect(formatHlSize('0.01479', 4)).toBe('0.0147')
    expect(formatHlSize('100.0', 2)).toBe('100')
    expect(formatHlSize('0.00009', 4)).toBe('0')
    expect(isValidHlPrice('12345.6', 0)).toBe(false)
    expect(isValidHlPrice('123456', 0)).toBe(true)
    expect(isValidHlPrice('0.0147', 4)).toBe(false)
    expect(isValidHlPrice('0.01', 4)).toBe(true)
  })

  test('error: non-positive price, below the tick, negative size, bad szDecimals', () => {
    expect(() => formatHlPrice('0', 2)).toThrow(RangeError)
    expect(() => formatHlPrice('-1', 2)).toThrow(RangeError)
    expect(() => formatHlPrice('0.001', 4)).toThrow(RangeError)
    expect(formatHlPrice('0.001', 4, { rounding: 'up' })).toBe('0.01')
    expect(() => formatHlSize('-1', 2)).toThrow(RangeError)
    expect(() => formatHlSize('1', -1)).toThrow(RangeError)
    expect(isValidHlPrice('abc', 2)).toBe(false)
    expect(isValidHlPrice('0', 2)).toBe(false)
  })
})
