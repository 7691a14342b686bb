import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { venueOrderFills } from './venueOrderFills.js'

describe('venueOrderFills', () => {
  test('default: what the venue shows, its price when it gives one', () => {
    expect(
      venueOrderFills(
        { filledBase: '1', averagePrice: '100' },
        { filledBase: '2.50', averagePrice: '101' },
      ),
    ).toEqual({ filledBase: '2.5', averagePrice: '101' })
    expect(
      venueOrderFills(
        { filledBase: '0', averagePrice: null },
        { filledBase: '0', averagePrice: '99' },
      ),
    ).toEqual({ filledBase: '0', averagePrice: null })
  })

  test('behavior: fills never decrease, and a price left out keeps the known one', () => {
    const known = { filledBase: '2', averagePrice: '100' }
    expect(
      venueOrderFills(known, { filledBase: '1', averagePrice: '98' }),
    ).toBe(known)
    expect(
      venueOrderFills(known, { filledBase: '2', averagePrice: null }),
    ).toEqual(known)
  })

  test('property: over any sequence of answers the booked fills are the most any answer showed', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 1_000 }), { maxLength: 20 }),
        (answers) => {
          let known = { filledBase: '0', averagePrice: null as string | null }
          for (const n of answers) {
            known = venueOrderFills(known, {
              filledBase: String(n / 100),
              averagePrice: n === 0 ? null : '100',
            })
          }
          expect(Number(known.filledBase)).toBe(Math.max(0, ...answers) / 100)
          expect(known.averagePrice === null).toBe(known.filledBase === '0')
        },
      ),
    )
  })
})
