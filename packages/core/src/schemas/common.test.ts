import fc from 'fast-check'
import * as v from 'valibot'
import { describe, expect, test } from 'vitest'
import {
  AddressSchema,
  DateTimeSchema,
  DecimalStringSchema,
  IdempotencyKeySchema,
  MAX_AMOUNT,
  MarketSchema,
  PositiveAmountSchema,
  SignatureSchema,
  UuidSchema,
  VenueSchema,
} from './common.js'

const ok = (schema: v.GenericSchema, value: unknown) =>
  v.safeParse(schema, value).success

describe('VenueSchema', () => {
  test('behavior: accepts the four venues only', () => {
    for (const venue of ['aster', 'hl', 'lighter', 'lighter-mainnet']) {
      expect(ok(VenueSchema, venue)).toBe(true)
    }
    for (const bad of ['HL', 'lighter_mainnet', '', 'binance', 1, null]) {
      expect(ok(VenueSchema, bad)).toBe(false)
    }
  })
})

describe('UuidSchema', () => {
  const id = '0f8fad5b-d9cb-469f-a165-70867728950e'
  test('behavior: lowercase uuid passes', () => {
    expect(ok(UuidSchema, id)).toBe(true)
    expect(ok(UuidSchema, '00000000-0000-0000-0000-000000000000')).toBe(true)
  })
  test('error: uppercase, braces, short, long, no dashes', () => {
    expect(ok(UuidSchema, id.toUpperCase())).toBe(false)
    expect(ok(UuidSchema, `{${id}}`)).toBe(false)
    expect(ok(UuidSchema, id.slice(1))).toBe(false)
    expect(ok(UuidSchema, `${id}0`)).toBe(false)
    expect(ok(UuidSchema, id.replaceAll('-', ''))).toBe(false)
    expect(ok(UuidSchema, `${id}\n`)).toBe(false)
  })
  test('behavior: any fast-check uuid, lowercased, passes', () => {
    fc.assert(fc.property(fc.uuid(), (u) => ok(UuidSchema, u.toLowerCase())))
  })
})

describe('AddressSchema', () => {
  const addr = `0x${'aB'.repeat(20)}`
  test('behavior: 40 hex digits in either case', () => {
    expect(ok(AddressSchema, addr)).toBe(true)
    expect(ok(AddressSchema, `0x${'0'.repeat(40)}`)).toBe(true)
  })
  test('error: 39 or 41 digits, no prefix, non-hex, 0X', () => {
    expect(ok(AddressSchema, `0x${'a'.repeat(39)}`)).toBe(false)
    expect(ok(AddressSchema, `0x${'a'.repeat(41)}`)).toBe(false)
    expect(ok(AddressSchema, 'a'.repeat(42))).toBe(false)
    expect(ok(AddressSchema, `0x${'g'.repeat(40)}`)).toBe(false)
    expect(ok(AddressSchema, `0X${'a'.repeat(40)}`)).toBe(false)
  })
})

describe('SignatureSchema', () => {
  test('behavior: exactly 130 hex digits', () => {
    expect(ok(SignatureSchema, `0x${'Ab'.repeat(65)}`)).toBe(true)
    expect(ok(SignatureSchema, `0x${'a'.repeat(129)}`)).toBe(false)
    expect(ok(SignatureSchema, `0x${'a'.repeat(131)}`)).toBe(false)
    expect(ok(SignatureSchema, `0x${'z'.repeat(130)}`)).toBe(false)
  })
})

describe('IdempotencyKeySchema', () => {
  test('behavior: 1..128 printable non-space ASCII', () => {
    expect(ok(IdempotencyKeySchema, 'a')).toBe(true)
    expect(ok(IdempotencyKeySchema, 'k'.repeat(128))).toBe(true)
    expect(ok(IdempotencyKeySchema, '!~{}"\\')).toBe(true)
  })
  test('error: empty, 129, space, tab, non-ASCII, DEL', () => {
    expect(ok(IdempotencyKeySchema, '')).toBe(false)
    expect(ok(IdempotencyKeySchema, 'k'.repeat(129))).toBe(false)
    expect(ok(IdempotencyKeySchema, 'a b')).toBe(false)
    expect(ok(IdempotencyKeySchema, 'a\tb')).toBe(false)
    expect(ok(IdempotencyKeySchema, 'clé')).toBe(false)
    expect(ok(IdempotencyKeySchema, 'a\u007f')).toBe(false)
  })
  test('behavior: matches its definition for any ASCII string', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary-ascii', maxLength: 140 }),
        (s) =>
          ok(IdempotencyKeySchema, s) ===
          (s.length >= 1 &&
            s.length <= 128 &&
            [...s].every((c) => c >= '!' && c <= '~')),
      ),
    )
  })
})

describe('DateTimeSchema', () => {
  test('behavior: ISO 8601 timestamps pass', () => {
    expect(ok(DateTimeSchema, '2025-01-02T03:04:05.678Z')).toBe(true)
    expect(ok(DateTimeSchema, new Date(0).toISOString())).toBe(true)
  })
  test('error: dates only, garbage, numbers', () => {
    expect(ok(DateTimeSchema, '2025-01-02')).toBe(false)
    expect(ok(DateTimeSchema, 'yesterday')).toBe(false)
    expect(ok(DateTimeSchema, 0)).toBe(false)
  })
})

describe('DecimalStringSchema', () => {
  test('behavior: plain-notation decimals', () => {
    for (const s of ['0', '10', '-1.5', '0.000001', '99999999999999']) {
      expect(ok(DecimalStringSchema, s)).toBe(true)
    }
    for (const s of ['', '1e5', '.5', '1.', '+1', 'NaN', '1,5']) {
      expect(ok(DecimalStringSchema, s)).toBe(false)
    }
    expect(ok(DecimalStringSchema, 1)).toBe(false)
  })
})

describe('MarketSchema', () => {
  test('behavior: bare and prefixed symbols up to 64 chars', () => {
    expect(ok(MarketSchema, 'BTC')).toBe(true)
    expect(ok(MarketSchema, 'xyz:TSLA')).toBe(true)
    expect(ok(MarketSchema, 'M'.repeat(64))).toBe(true)
  })
  test('error: empty, 65 chars, whitespace', () => {
    expect(ok(MarketSchema, '')).toBe(false)
    expect(ok(MarketSchema, 'M'.repeat(65))).toBe(false)
    expect(ok(MarketSchema, 'BTC USD')).toBe(false)
    expect(ok(MarketSchema, ' BTC')).toBe(false)
    expect(ok(MarketSchema, 'BTC\n')).toBe(false)
  })
})

describe('PositiveAmountSchema', () => {
  test('behavior: (0, MAX_AMOUNT]', () => {
    expect(ok(PositiveAmountSchema, Number.MIN_VALUE)).toBe(true)
    expect(ok(PositiveAmountSchema, MAX_AMOUNT)).toBe(true)
    expect(ok(PositiveAmountSchema, 0)).toBe(false)
    expect(ok(PositiveAmountSchema, -1)).toBe(false)
    expect(ok(PositiveAmountSchema, MAX_AMOUNT + 1)).toBe(false)
    expect(ok(PositiveAmountSchema, Number.POSITIVE_INFINITY)).toBe(false)
    expect(ok(PositiveAmountSchema, Number.NaN)).toBe(false)
    expect(ok(PositiveAmountSchema, '1')).toBe(false)
  })
})
