import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { dec } from '../util/decimal.js'
import { bookLegFill, EMPTY_LEG_BOOK, type LegBook } from './legBook.js'

describe('bookLegFill', () => {
  test('default: open then close realizes (exit − entry) × size on a long', () => {
    const opened = bookLegFill(EMPTY_LEG_BOOK, {
      leg: 'long',
      grows: true,
      base: '2',
      price: '100',
      builderFeeUsd: '0.06',
      venueFeeUsd: '0.09',
      sizeBefore: '0',
      entryBefore: null,
    })
    const closed = bookLegFill(opened, {
      leg: 'long',
      grows: false,
      base: '2',
      price: '110',
      builderFeeUsd: '0.066',
      venueFeeUsd: '0.099',
      sizeBefore: '2',
      entryBefore: '100',
    })
    expect(closed).toEqual({
      openBase: '2',
      openNotional: '200',
      closeBase: '2',
      closeNotional: '220',
      realizedUsd: '20',
      builderFeesUsd: '0.126',
      venueFeesUsd: '0.189',
      venueFeesUnknown: false,
    })
  })

  test('a fill whose venue fee is not known leaves the leg unknown, its known fees counted', () => {
    const known = bookLegFill(EMPTY_LEG_BOOK, {
      leg: 'long',
      grows: true,
      base: '1',
      price: '100',
      builderFeeUsd: '0',
      venueFeeUsd: '0.045',
      sizeBefore: '0',
      entryBefore: null,
    })
    const unknown = bookLegFill(known, {
      leg: 'long',
      grows: true,
      base: '1',
      price: '100',
      builderFeeUsd: '0',
      venueFeeUsd: null,
      sizeBefore: '1',
      entryBefore: '100',
    })
    expect(known).toMatchObject({
      venueFeesUsd: '0.045',
      venueFeesUnknown: false,
    })
    expect(unknown).toMatchObject({
      venueFeesUsd: '0.045',
      venueFeesUnknown: true,
    })
  })

  test('a book saved before venue fees were booked stays unknown', () => {
    const legacy = {
      openBase: '1',
      openNotional: '100',
      closeBase: '0',
      closeNotional: '0',
      realizedUsd: '0',
      builderFeesUsd: '0',
    }
    const b = bookLegFill(legacy, {
      leg: 'long',
      grows: false,
      base: '1',
      price: '100',
      builderFeeUsd: '0',
      venueFeeUsd: '0.045',
      sizeBefore: '1',
      entryBefore: '100',
    })
    expect(b).toMatchObject({ venueFeesUsd: '0.045', venueFeesUnknown: true })
  })

  test('a short realizes (entry − exit) × size', () => {
    const b = bookLegFill(EMPTY_LEG_BOOK, {
      leg: 'short',
      grows: false,
      base: '1.5',
      price: '110',
      builderFeeUsd: '0',
      venueFeeUsd: '0',
      sizeBefore: '1.5',
      entryBefore: '100',
    })
    expect(b.realizedUsd).toBe('-15')
  })

  test('property: a leg opened in pieces and closed in pieces realizes the average-cost PnL', () => {
    const piece = fc.record({
      base: fc.integer({ min: 1, max: 1_000 }),
      price: fc.integer({ min: 1, max: 100_000 }),
    })
    fc.assert(
      fc.property(
        fc.constantFrom('long' as const, 'short' as const),
        fc.array(piece, { minLength: 1, maxLength: 5 }),
        fc.array(fc.integer({ min: 1, max: 100_000 }), {
          minLength: 1,
          maxLength: 5,
        }),
        (leg, opens, exits) => {
          let book: LegBook = EMPTY_LEG_BOOK
          let size = dec(0)
          let entry: string | null = null
          for (const o of opens) {
            book = bookLegFill(book, {
              leg,
              grows: true,
              base: String(o.base),
              price: String(o.price),
              builderFeeUsd: '0',
              venueFeeUsd: '0',
              sizeBefore: size.toFixed(),
              entryBefore: entry,
            })
            const after = size.add(o.base)
            entry = size
              .mul(entry ?? 0)
              .add(dec(o.base).mul(o.price))
              .div(after)
              .toFixed()
            size = after
          }
          const held = size
          const avgEntry = dec(book.openNotional).div(book.openBase)
          // close it all in whole pieces (the last takes the rest)
          const each = held.div(exits.length).floor()
          let closedNotional = dec(0)
          exits.forEach((px, i) => {
            const base = i === exits.length - 1 ? size : each
            book = bookLegFill(book, {
              leg,
              grows: false,
              base: base.toFixed(),
              price: String(px),
              builderFeeUsd: '0',
              venueFeeUsd: '0',
              sizeBefore: size.toFixed(),
              entryBefore: entry,
            })
            closedNotional = closedNotional.add(base.mul(px))
            size = size.sub(base)
          })
          const dir = leg === 'long' ? 1 : -1
          const expected = closedNotional.sub(held.mul(avgEntry)).mul(dir)
          expect(dec(book.realizedUsd).sub(expected).abs().lt('1e-12')).toBe(
            true,
          )
          expect(dec(book.closeBase).eq(held)).toBe(true)
        },
      ),
    )
  })
})
