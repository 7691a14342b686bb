import fc from 'fast-check'
import * as v from 'valibot'
import { describe, expect, test } from 'vitest'
import { ValidationError } from '../errors/domain.js'
import { ListQuery } from './listQuery.js'
import { parseInput } from './parseInput.js'

const ok = (value: unknown) => v.safeParse(ListQuery, value).success

function messageOf(value: unknown): string {
  try {
    parseInput(ListQuery, value, 'invalid_query')
  } catch (err) {
    if (err instanceof ValidationError) return `${err.code} ${err.message}`
    throw err
  }
  return 'passed'
}

describe('ListQuery', () => {
  test('default: empty query passes without defaults filled in', () => {
    expect(parseInput(ListQuery, {})).toEqual({})
  })

  test('behavior: limit is an integer 1..20', () => {
    expect(ok({ limit: 1 })).toBe(true)
    expect(ok({ limit: 20 })).toBe(true)
    expect(messageOf({ limit: 0 })).toBe('invalid_query limit: must be >= 1')
    expect(messageOf({ limit: 21 })).toBe('invalid_query limit: must be <= 20')
    expect(messageOf({ limit: 2.5 })).toBe(
      'invalid_query limit: must be an integer',
    )
    expect(messageOf({ limit: '10' })).toBe(
      'invalid_query limit: must be an integer',
    )
    expect(ok({ limit: 'abc' })).toBe(false)
  })

  test('behavior: status pattern', () => {
    expect(ok({ status: 'a' })).toBe(true)
    expect(ok({ status: 'partially_filled' })).toBe(true)
    expect(ok({ status: `a${'b'.repeat(63)}` })).toBe(true)
    expect(ok({ status: `a${'b'.repeat(64)}` })).toBe(false)
    for (const bad of ['', '_open', '1open', 'Open', 'open-x', 'open ']) {
      expect(ok({ status: bad })).toBe(false)
    }
  })

  test('behavior: updatedSince needs 1..6 fractional digits and Z', () => {
    expect(ok({ updatedSince: '2025-03-01T00:00:00.1Z' })).toBe(true)
    expect(ok({ updatedSince: '2025-03-01T23:59:59.123456Z' })).toBe(true)
    for (const bad of [
      '2025-03-01T00:00:00Z',
      '2025-03-01T00:00:00.1234567Z',
      '2025-03-01T00:00:00.123+00:00',
      '2025-03-01 00:00:00.123Z',
      '2025-03-01T00:00:00.123z',
    ]) {
      expect(ok({ updatedSince: bad })).toBe(false)
    }
  })

  test('error: updatedSince must be a real date and time', () => {
    expect(ok({ updatedSince: '2024-02-29T00:00:00.0Z' })).toBe(true)
    expect(messageOf({ updatedSince: '2025-02-29T00:00:00.0Z' })).toBe(
      'invalid_query updatedSince: must be a real calendar date and time',
    )
    for (const bad of [
      '2025-13-01T00:00:00.0Z',
      '2025-00-10T00:00:00.0Z',
      '2025-04-31T00:00:00.0Z',
      '2025-04-00T00:00:00.0Z',
      '2025-04-01T24:00:00.0Z',
      '2025-04-01T00:60:00.0Z',
      '2025-04-01T00:00:60.0Z',
    ]) {
      expect(ok({ updatedSince: bad })).toBe(false)
    }
    expect(ok({ updatedSince: '0099-12-31T23:59:59.9Z' })).toBe(true)
  })

  test('behavior: cursor is 1..1024 base64url characters', () => {
    expect(ok({ cursor: 'a' })).toBe(true)
    expect(ok({ cursor: `${'A-_z9'.repeat(204)}abcd` })).toBe(true)
    expect(ok({ cursor: 'a'.repeat(1025) })).toBe(false)
    expect(ok({ cursor: '' })).toBe(false)
    expect(ok({ cursor: 'abc=' })).toBe(false)
    expect(ok({ cursor: 'a+b' })).toBe(false)
  })

  test('error: unknown parameter', () => {
    expect(messageOf({ offset: 10 })).toBe(
      'invalid_query unknown field "offset"',
    )
  })

  test('property: any real instant, written with 1..6 digits, passes', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('0001-01-01T00:00:00Z'),
          max: new Date('9999-12-31T23:59:59Z'),
          noInvalidDate: true,
        }),
        fc.integer({ min: 1, max: 6 }),
        (date, digits) => {
          const iso = date.toISOString()
          const updatedSince = `${iso.slice(0, 20)}${'123456'.slice(0, digits)}Z`
          return ok({ updatedSince })
        },
      ),
    )
  })
})
