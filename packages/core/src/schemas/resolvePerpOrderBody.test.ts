import fc from 'fast-check'
import * as v from 'valibot'
import { describe, expect, test } from 'vitest'
import { ValidationError } from '../errors/domain.js'
import { parseInput } from './parseInput.js'
import { ResolvePerpOrderBody } from './resolvePerpOrderBody.js'

const filled = {
  status: 'filled',
  filledBase: 1.25,
  averagePrice: 2500.5,
  evidence: 'venue fill history export, 3 fills',
  confirmNoOpenOrder: true,
  confirmWorkersStopped: true,
} as const
const none = { ...filled, status: 'expired', filledBase: 0, averagePrice: null }

const ok = (value: unknown) => v.safeParse(ResolvePerpOrderBody, value).success

function messageOf(value: unknown): string {
  try {
    parseInput(ResolvePerpOrderBody, value)
  } catch (err) {
    if (err instanceof ValidationError) return err.message
    throw err
  }
  return 'passed'
}

describe('ResolvePerpOrderBody', () => {
  test('default: filled and unfilled resolutions pass', () => {
    expect(parseInput(ResolvePerpOrderBody, filled)).toEqual(filled)
    expect(ok(none)).toBe(true)
  })

  test('behavior: every terminal status, none other', () => {
    for (const status of ['filled', 'cancelled', 'expired', 'rejected']) {
      expect(ok({ ...filled, status })).toBe(true)
    }
    for (const status of ['unknown', 'open', 'pending', '']) {
      expect(ok({ ...filled, status })).toBe(false)
    }
  })

  test('error: averagePrice null exactly when filledBase is 0', () => {
    expect(messageOf({ ...filled, filledBase: 0 })).toBe(
      'averagePrice: must be null when filledBase is 0',
    )
    expect(messageOf({ ...filled, averagePrice: null })).toBe(
      'averagePrice: is required (> 0) when filledBase is above 0',
    )
  })

  test('behavior: bounds of filledBase, averagePrice and evidence', () => {
    expect(ok({ ...filled, filledBase: -0.000001 })).toBe(false)
    expect(ok({ ...filled, averagePrice: 0 })).toBe(false)
    expect(ok({ ...filled, averagePrice: 0.000001 })).toBe(true)
    expect(ok({ ...filled, evidence: 'x'.repeat(10) })).toBe(true)
    expect(ok({ ...filled, evidence: 'x'.repeat(9) })).toBe(false)
    expect(ok({ ...filled, evidence: 'x'.repeat(2000) })).toBe(true)
    expect(ok({ ...filled, evidence: 'x'.repeat(2001) })).toBe(false)
  })

  test('error: confirmations must be literally true', () => {
    expect(messageOf({ ...filled, confirmNoOpenOrder: false })).toBe(
      'confirmNoOpenOrder: must be true',
    )
    expect(ok({ ...filled, confirmWorkersStopped: 'true' })).toBe(false)
  })

  test('error: every field is required, unknown fields fail', () => {
    for (const key of Object.keys(filled)) {
      const { [key as keyof typeof filled]: _gone, ...rest } = filled
      expect(ok(rest)).toBe(false)
    }
    expect(messageOf({ ...filled, note: 'x' })).toBe('unknown field "note"')
  })

  test('property: the null rule holds for any fill', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.constant(0),
          fc.double({ min: 1e-9, max: 1e9, noNaN: true }),
        ),
        fc.option(fc.double({ min: 1e-9, max: 1e9, noNaN: true })),
        (filledBase, averagePrice) =>
          ok({ ...filled, filledBase, averagePrice }) ===
          ((filledBase === 0) === (averagePrice === null)),
      ),
    )
  })
})
