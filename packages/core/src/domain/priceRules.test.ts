import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { decString } from '../util/decimal.js'
import { isValidPrice, roundPrice } from './priceRules.js'

const hlBtc = { tickSize: '0.1', maxSigFigs: 5 }
const tick = { tickSize: '0.01', maxSigFigs: null }

describe('price rules', () => {
  test('default: Hyperliquid five significant figures, integers always valid', () => {
    expect(isValidPrice(hlBtc, '100001')).toBe(true)
    expect(isValidPrice(hlBtc, '100000.5')).toBe(false)
    expect(isValidPrice(hlBtc, '9999.5')).toBe(true)
    expect(isValidPrice(hlBtc, '999.55')).toBe(false)
    expect(isValidPrice(hlBtc, '0')).toBe(false)
  })

  test('behavior: a plain tick grid', () => {
    expect(isValidPrice(tick, '3500.01')).toBe(true)
    expect(isValidPrice(tick, '3500.015')).toBe(false)
  })

  test('behavior: rounding lands on the grid in the asked direction', () => {
    expect(decString(roundPrice(hlBtc, '101010.7', 'up'))).toBe('101011')
    expect(decString(roundPrice(hlBtc, '1234.567', 'down'))).toBe('1234.5')
    expect(decString(roundPrice(hlBtc, '1234.567', 'up'))).toBe('1234.6')
    expect(decString(roundPrice(tick, '99.999', 'down'))).toBe('99.99')
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10 ** 9 }),
        fc.constantFrom('up', 'down'),
        (n, mode) => {
          const price = n / 1000
          const r = roundPrice(hlBtc, price, mode as 'up' | 'down')
          expect(isValidPrice(hlBtc, r) || r.isZero()).toBe(true)
          if (mode === 'up') expect(r.gte(price)).toBe(true)
          else expect(r.lte(price)).toBe(true)
        },
      ),
    )
  })
})
