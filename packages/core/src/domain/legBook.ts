import { dec, decString } from '../util/decimal.js'

/**
 * What a task's fills on one leg add up to, kept in its engine state:
 * the fills that grew the leg (`open*`), those that shrank it (`close*`),
 * the PnL realized by the shrinking ones at the leg's average entry, and
 * the builder and venue trading fees paid. Decimal strings, full
 * precision.
 */
export interface LegBook {
  readonly openBase: string
  readonly openNotional: string
  readonly closeBase: string
  readonly closeNotional: string
  readonly realizedUsd: string
  readonly builderFeesUsd: string
  /** venue trading fees of the fills whose fee is known */
  readonly venueFeesUsd?: string | undefined
  /**
   * some filled order's venue fee is not known (could not be read, or was
   * booked before fees were); absent in books saved before venue fees
   * were booked, which counts as unknown
   */
  readonly venueFeesUnknown?: boolean | undefined
}

export const EMPTY_LEG_BOOK: LegBook = Object.freeze({
  openBase: '0',
  openNotional: '0',
  closeBase: '0',
  closeNotional: '0',
  realizedUsd: '0',
  builderFeesUsd: '0',
  venueFeesUsd: '0',
  venueFeesUnknown: false,
})

/** One filled leg order, with what the leg held just before it. */
interface LegFill {
  readonly leg: 'long' | 'short'
  /** the order grows the leg (buy on the long leg, sell on the short) */
  readonly grows: boolean
  readonly base: string
  readonly price: string
  readonly builderFeeUsd: string
  /** the venue trading fee it paid; null when not known */
  readonly venueFeeUsd: string | null
  /** the leg's size (≥ 0) and average entry before the fill */
  readonly sizeBefore: string
  readonly entryBefore: string | null
}

/**
 * Books one fill (average-cost method): a growing fill adds to the open
 * totals; a shrinking one, up to the size held, adds to the close totals
 * and realizes (price − entry) × base on the long leg, (entry − price) ×
 * base on the short one.
 */
export function bookLegFill(book: LegBook, fill: LegFill): LegBook {
  const base = dec(fill.base)
  if (!base.gt(0)) return book
  const notional = base.mul(fill.price)
  const fees = {
    builderFeesUsd: decString(dec(book.builderFeesUsd).add(fill.builderFeeUsd)),
    venueFeesUsd: decString(
      dec(book.venueFeesUsd ?? '0').add(fill.venueFeeUsd ?? '0'),
    ),
    venueFeesUnknown:
      book.venueFeesUnknown !== false || fill.venueFeeUsd === null,
  }
  if (fill.grows) {
    return {
      ...book,
      openBase: decString(dec(book.openBase).add(base)),
      openNotional: decString(dec(book.openNotional).add(notional)),
      ...fees,
    }
  }
  const held = dec(fill.sizeBefore)
  const closed = base.lt(held) ? base : held
  const entry = fill.entryBefore ?? fill.price
  const perUnit = dec(fill.price).sub(entry)
  const realized = closed.mul(fill.leg === 'long' ? perUnit : perUnit.neg())
  return {
    ...book,
    closeBase: decString(dec(book.closeBase).add(base)),
    closeNotional: decString(dec(book.closeNotional).add(notional)),
    realizedUsd: decString(dec(book.realizedUsd).add(realized)),
    ...fees,
  }
}

/**
 * A venue fee read after its fill was booked with the fee unknown (a
 * closed task's settlement): added to the known fees. The leg's fees are
 * known again unless an earlier fill's still is not (`unknownBefore`).
 */
export function bookLateVenueFee(
  book: LegBook,
  feeUsd: string,
  unknownBefore: boolean,
): LegBook {
  return {
    ...book,
    venueFeesUsd: decString(dec(book.venueFeesUsd ?? '0').add(feeUsd)),
    venueFeesUnknown: unknownBefore,
  }
}
