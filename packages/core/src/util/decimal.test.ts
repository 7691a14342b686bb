import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { commonStep } from '../commands/marketChecks.js'
import { dec, decString, floorToStep, isMultipleOf } from './decimal.js'

describe('decimal', () => {
  test('default: exact where floats are not', () => {
    expect(decString(dec(0.1).add(0.2))).toBe('0.3')
    expect(decString('1.2000')).toBe('1.2')
    expect(decString(1e-7)).toBe('0.0000001')
    expect(decString('99999999999999.123456789')).toBe(
      '99999999999999.123456789',
    )
  })

  test('property: decString of any decimal string equals its Decimal form (the canonical fast path changes nothing)', () => {
    const viaDecimal = (v: string) => {
      const d = dec(v)
      return d.isZero() ? '0' : d.toFixed()
    }
    const digits = (min: number, max: number) =>
      fc.string({
        unit: fc.constantFrom(...'0123456789'),
        minLength: min,
        maxLength: max,
      })
    fc.assert(
      fc.property(
        fc.boolean(),
        digits(1, 70),
        fc.option(digits(0, 70)),
        (neg, int, frac) => {
          const v = `${neg ? '-' : ''}${int}${frac === null ? '' : `.${frac}`}`
          if (v.endsWith('.')) return
          expect(decString(v)).toBe(viaDecimal(v))
        },
      ),
      { numRuns: 2_000 },
    )
    for (const v of ['-0', '0', '0.10', '00.1', '-0.0', '1.0', '10', '-7.25']) {
      expect(decString(v)).toBe(viaDecimal(v))
    }
  })

  test('behavior: floorToStep rounds toward zero onto the step', () => {
    expect(decString(floorToStep('0.123456', '0.0001'))).toBe('0.1234')
    expect(decString(floorToStep('5', '0.001'))).toBe('5')
    expect(decString(floorToStep('0.00009', '0.0001'))).toBe('0')
  })

  test('behavior: isMultipleOf checks ticks exactly', () => {
    expect(isMultipleOf('100000.1', '0.1')).toBe(true)
    expect(isMultipleOf('100000.15', '0.1')).toBe(false)
    expect(isMultipleOf(3500.3, '0.01')).toBe(true)
  })

  test('behavior: floorToStep result is a multiple of the step and <= value', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10 ** 12 }),
        fc.integer({ min: 0, max: 8 }),
        fc.integer({ min: 0, max: 6 }),
        (units, scale, stepScale) => {
          const value = dec(units).div(10 ** scale)
          const step = dec(1).div(10 ** stepScale)
          const floored = floorToStep(value, step)
          expect(floored.lte(value)).toBe(true)
          expect(value.sub(floored).lt(step)).toBe(true)
          expect(isMultipleOf(floored, step)).toBe(true)
        },
      ),
    )
  })

  test('behavior: commonStep is the least common multiple of two steps', () => {
    expect(commonStep('0.001', '0.00001')).toBe('0.001')
    expect(commonStep('0.01', '0.001')).toBe('0.01')
    expect(commonStep('0.25', '0.1')).toBe('0.5')
    expect(commonStep('1', '0.3')).toBe('3')
  })
})
