import fc from 'fast-check'
import * as v from 'valibot'
import { describe, expect, test } from 'vitest'
import { ValidationError } from '../errors/domain.js'
import { MAX_AMOUNT } from './common.js'
import { parseInput } from './parseInput.js'
import { ResizeTaskBody } from './resizeTaskBody.js'

const ok = (value: unknown) => v.safeParse(ResizeTaskBody, value).success

function messageOf(value: unknown): string {
  try {
    parseInput(ResizeTaskBody, value)
  } catch (err) {
    if (err instanceof ValidationError) return err.message
    throw err
  }
  return 'passed'
}

describe('ResizeTaskBody', () => {
  test('default: one target is enough', () => {
    expect(ok({ longTargetBase: 1 })).toBe(true)
    expect(ok({ shortTargetBase: 1 })).toBe(true)
    expect(
      ok({
        longTargetBase: 1,
        shortTargetBase: 2,
        disableSizeMismatchAutoClose: true,
      }),
    ).toBe(true)
  })

  test('error: at least one target is required', () => {
    expect(messageOf({})).toBe(
      'at least one of longTargetBase and shortTargetBase is required',
    )
    expect(ok({ disableSizeMismatchAutoClose: true })).toBe(false)
  })

  test.each(['longTargetBase', 'shortTargetBase'])(
    'behavior: %s bounds (0, MAX_AMOUNT]',
    (key) => {
      expect(ok({ [key]: 0.000001 })).toBe(true)
      expect(ok({ [key]: MAX_AMOUNT })).toBe(true)
      expect(messageOf({ [key]: 0 })).toBe(`${key}: must be > 0`)
      expect(messageOf({ [key]: MAX_AMOUNT + 1 })).toBe(
        `${key}: must be <= ${MAX_AMOUNT}`,
      )
      expect(ok({ [key]: '1' })).toBe(false)
    },
  )

  test('error: disableSizeMismatchAutoClose must be boolean', () => {
    expect(ok({ longTargetBase: 1, disableSizeMismatchAutoClose: 1 })).toBe(
      false,
    )
  })

  test('error: unknown fields such as USD sizes', () => {
    expect(messageOf({ longTargetBase: 1, sizeUsd: 100 })).toBe(
      'unknown field "sizeUsd"',
    )
  })

  test('property: any positive in-range target passes, any extra key fails', () => {
    const target = fc.double({ min: 1e-12, max: MAX_AMOUNT, noNaN: true })
    fc.assert(fc.property(target, (t) => ok({ shortTargetBase: t })))
    fc.assert(
      fc.property(
        target,
        fc
          .string({ minLength: 1 })
          .filter((k) => !(k in ResizeTaskBody.entries) && k !== '__proto__'),
        (t, key) => !ok({ longTargetBase: t, [key]: true }),
      ),
    )
  })
})
