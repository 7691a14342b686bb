import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { dec } from '../util/decimal.js'
import { isValidPrice } from './priceRules.js'
import { protectionPrice, venueProtectionPrice } from './protectionPrice.js'

const RULES = { tickSize: '0.1', maxSigFigs: 5 }

describe('protectionPrice', () => {
  test('default: the mark moved against the taker by slippageBps', () => {
    expect(protectionPrice('100', 'long', 100).toString()).toBe('101')
    expect(protectionPrice('100', 'short', 100).toString()).toBe('99')
    expect(protectionPrice('100', 'long', 0).toString()).toBe('100')
  })

  test('default: on the venue grid, rounded away from the mark', () => {
    expect(venueProtectionPrice(RULES, '97.03', 'long', 100).toString()).toBe(
      '98.1',
    )
    expect(venueProtectionPrice(RULES, '97.03', 'short', 100).toString()).toBe(
      '96',
    )
  })

  test('property: on the grid, never tighter than the unrounded bound', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.integer({ min: 0, max: 5_000 }),
        fc.constantFrom('long', 'short' as const),
        (markTenths, bps, side) => {
          const mark = dec(markTenths).div(10)
          const raw = protectionPrice(mark, side, bps)
          const venue = venueProtectionPrice(RULES, mark, side, bps)
          // a bound under one tick has no price on the grid
          if (raw.lt(RULES.tickSize)) return
          expect(isValidPrice(RULES, venue)).toBe(true)
          if (side === 'long') expect(venue.gte(raw)).toBe(true)
          else expect(venue.lte(raw)).toBe(true)
        },
      ),
    )
  })
})
