import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import type { VenuePosition } from '../ports/venueAdapter.js'
import { dec } from '../util/decimal.js'
import { applyOwnFill } from './applyOwnFill.js'

const held = (
  size: string,
  over: Partial<VenuePosition> = {},
): VenuePosition => ({
  market: 'BTC',
  size,
  entryPrice: '100',
  markPrice: '101',
  leverage: '5',
  marginMode: 'isolated',
  liquidationPrice: '80',
  ...over,
})
const ETH = held('-3', { market: 'ETH', liquidationPrice: '4000' })

describe('applyOwnFill', () => {
  test('default: a fill adding to a long averages the entry and forgets the liquidation price', () => {
    expect(
      applyOwnFill([held('1'), ETH], {
        market: 'BTC',
        side: 'long',
        base: '1',
        price: '110',
      }),
    ).toEqual([ETH, held('2', { entryPrice: '105', liquidationPrice: null })])
  })

  test('behavior: a fill reducing a position keeps entry and liquidation price', () => {
    expect(
      applyOwnFill([held('1')], {
        market: 'BTC',
        side: 'short',
        base: '0.4',
        price: '120',
      }),
    ).toEqual([held('0.6')])
    expect(
      applyOwnFill([ETH], {
        market: 'ETH',
        side: 'long',
        base: '1',
        price: '1',
      }),
    ).toEqual([{ ...ETH, size: '-2' }])
  })

  test('behavior: a fill closing a position removes it; one turning it takes the fill price as entry', () => {
    expect(
      applyOwnFill([held('1'), ETH], {
        market: 'BTC',
        side: 'short',
        base: '1',
        price: '99',
      }),
    ).toEqual([ETH])
    expect(
      applyOwnFill([held('1')], {
        market: 'BTC',
        side: 'short',
        base: '1.5',
        price: '99',
      }),
    ).toEqual([held('-0.5', { entryPrice: '99', liquidationPrice: null })])
  })

  test("behavior: no average price keeps the entry; a market not held is the venue's to tell", () => {
    expect(
      applyOwnFill([held('1')], {
        market: 'BTC',
        side: 'long',
        base: '1',
        price: null,
      }),
    ).toEqual([held('2', { liquidationPrice: null })])
    expect(
      applyOwnFill([ETH], {
        market: 'BTC',
        side: 'long',
        base: '1',
        price: '1',
      }),
    ).toBeUndefined()
  })

  test('property: fills add up to the size the venue would show, and a liquidation price survives only when the position never grew or turned', () => {
    const fillArb = fc.record({
      side: fc.constantFrom('long' as const, 'short' as const),
      base: fc.integer({ min: 1, max: 500 }).map((n) => String(n / 100)),
      price: fc.integer({ min: 1, max: 100_000 }).map((n) => String(n / 10)),
    })
    fc.assert(
      fc.property(
        fc.integer({ min: -500, max: 500 }).filter((n) => n !== 0),
        fc.array(fillArb, { maxLength: 12 }),
        (start, fills) => {
          let list: VenuePosition[] | undefined = [held(String(start / 100))]
          let expected = dec(start).div(100)
          let grewOrTurned = false
          for (const f of fills) {
            if (!list?.some((p) => p.market === 'BTC')) break
            const before = expected
            expected = expected.add(
              f.side === 'long' ? f.base : dec(f.base).neg(),
            )
            if (
              before.isPositive() === (f.side === 'long') ||
              (!expected.isZero() &&
                before.isPositive() !== expected.isPositive())
            ) {
              grewOrTurned = true
            }
            list = applyOwnFill(list, { market: 'BTC', ...f })
            const p = list?.find((x) => x.market === 'BTC')
            if (expected.isZero()) {
              expect(p).toBeUndefined()
              break
            }
            expect(p?.size).toBe(expected.toFixed())
            expect(p?.liquidationPrice).toBe(grewOrTurned ? null : '80')
            expect(dec(p?.entryPrice ?? '0').gt(0)).toBe(true)
          }
        },
      ),
      { numRuns: 500 },
    )
  })
})
