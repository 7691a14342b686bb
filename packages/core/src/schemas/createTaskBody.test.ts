import fc from 'fast-check'
import * as v from 'valibot'
import { describe, expect, test } from 'vitest'
import { ValidationError } from '../errors/domain.js'
import { MAX_AMOUNT } from './common.js'
import { CreateTaskBody } from './createTaskBody.js'
import { parseInput } from './parseInput.js'

const base = {
  longVenue: 'hl',
  shortVenue: 'aster',
  longMarket: 'BTC',
  shortMarket: 'BTCUSDT',
  sizeUsd: 100,
} as const

const ok = (value: unknown) => v.safeParse(CreateTaskBody, value).success
const withField = (key: string, value: unknown) => ({ ...base, [key]: value })

function messageOf(value: unknown): string {
  try {
    parseInput(CreateTaskBody, value)
  } catch (err) {
    if (err instanceof ValidationError) return err.message
    throw err
  }
  return 'passed'
}

describe('CreateTaskBody', () => {
  test('default: minimal body passes and keeps absent fields absent', () => {
    expect(parseInput(CreateTaskBody, base)).toEqual(base)
  })

  test('behavior: every optional field at a valid value', () => {
    expect(
      ok({
        ...base,
        minFundingApy: 12.5,
        autoClose: false,
        maxSpreadBps: 30,
        liqProtectionPct: 50,
        sizeMismatchPct: 5,
      }),
    ).toBe(true)
  })

  test.each([
    ['sizeUsd', 10, 9.999999],
    ['sizeUsd', MAX_AMOUNT, MAX_AMOUNT + 1],
    ['minFundingApy', 0, -0.000001],
    ['minFundingApy', 999_999, 999_999.000001],
    ['maxSpreadBps', 0.000001, 0],
    ['maxSpreadBps', MAX_AMOUNT, MAX_AMOUNT + 1],
    ['liqProtectionPct', 0.000001, 0],
    ['liqProtectionPct', 100, 100.000001],
    ['sizeMismatchPct', 0.5, 0.499999],
    ['sizeMismatchPct', 100, 100.000001],
  ])('behavior: %s bound %s passes, %s fails', (key, inside, outside) => {
    expect(ok(withField(key, inside))).toBe(true)
    expect(ok(withField(key, outside))).toBe(false)
  })

  test('error: messages name the field and the bound', () => {
    expect(messageOf(withField('sizeUsd', 9))).toBe('sizeUsd: must be >= 10')
    expect(messageOf(withField('liqProtectionPct', 0))).toBe(
      'liqProtectionPct: must be > 0',
    )
    expect(messageOf(withField('sizeUsd', '100'))).toBe(
      'sizeUsd: must be a number',
    )
  })

  test('error: wrong types', () => {
    expect(ok(withField('autoClose', 'true'))).toBe(false)
    expect(ok(withField('minFundingApy', null))).toBe(false)
    expect(ok(withField('longVenue', 'binance'))).toBe(false)
    expect(ok(withField('longMarket', 5))).toBe(false)
  })

  test('error: each required field is required', () => {
    for (const key of Object.keys(base)) {
      const { [key as keyof typeof base]: _gone, ...rest } = base
      expect(messageOf(rest)).toBe(`${key}: is required`)
    }
  })

  test('error: longVenue and shortVenue must differ', () => {
    expect(messageOf({ ...base, shortVenue: 'hl' })).toBe(
      'shortVenue: must differ from longVenue',
    )
  })

  test('error: markets must be non-empty, <= 64 chars, without whitespace', () => {
    expect(ok(withField('longMarket', ''))).toBe(false)
    expect(ok(withField('shortMarket', 'B'.repeat(65)))).toBe(false)
    expect(ok(withField('shortMarket', 'B'.repeat(64)))).toBe(true)
    expect(ok(withField('longMarket', 'BTC USD'))).toBe(false)
  })

  test('error: unknown fields, including prices and leverage', () => {
    expect(messageOf({ ...base, leverage: 3 })).toBe('unknown field "leverage"')
    expect(ok({ ...base, limitPrice: 1 })).toBe(false)
  })

  test('error: not an object', () => {
    for (const bad of [null, [], 'body', 1]) {
      expect(messageOf(bad)).toBe('must be an object')
    }
  })

  test('property: any sizeUsd in range passes, outside fails', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 10, max: MAX_AMOUNT, noNaN: true }),
        (sizeUsd) => ok({ ...base, sizeUsd }),
      ),
    )
    fc.assert(
      fc.property(
        fc.oneof(
          fc.double({ max: 10, maxExcluded: true, noNaN: true }),
          fc.double({ min: MAX_AMOUNT, minExcluded: true, noNaN: true }),
        ),
        (sizeUsd) => !ok({ ...base, sizeUsd }),
      ),
    )
  })

  test('property: any extra key fails', () => {
    const known = new Set(Object.keys(CreateTaskBody.entries))
    fc.assert(
      fc.property(
        fc
          .string({ minLength: 1 })
          .filter((k) => !known.has(k) && k !== '__proto__'),
        fc.jsonValue(),
        (key, value) => !ok({ ...base, [key]: value }),
      ),
    )
  })

  test('property: any pair of distinct venues passes, equal venues fail', () => {
    const venue = fc.constantFrom('aster', 'hl', 'lighter', 'lighter-mainnet')
    fc.assert(
      fc.property(
        venue,
        venue,
        (longVenue, shortVenue) =>
          ok({ ...base, longVenue, shortVenue }) === (longVenue !== shortVenue),
      ),
    )
  })
})
