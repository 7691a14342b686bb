import type { VenueOrder } from '../ports/venueAdapter.js'
import { dec, decString } from '../util/decimal.js'

/** What dn knows an order has filled, and at what average price. */
interface KnownFills {
  readonly filledBase: string
  readonly averagePrice: string | null
}

/**
 * An order's fills once the venue showed `seen`: the same rule for every
 * venue order, a direct order's or a task leg's. Fills never decrease (a
 * lookup answered by a lagging replica, or a venue that forgets a
 * cancelled order's fills, cannot take back what was booked), and a
 * price the venue left out of its answer (some lookups report fills
 * without one) keeps the one known.
 * @example
 * venueOrderFills({ filledBase: '2', averagePrice: '100' }, { filledBase: '1', averagePrice: null })
 * // { filledBase: '2', averagePrice: '100' }
 */
export function venueOrderFills(
  known: KnownFills,
  seen: Pick<VenueOrder, 'filledBase' | 'averagePrice'>,
): KnownFills {
  if (dec(seen.filledBase).lt(known.filledBase)) return known
  if (dec(seen.filledBase).isZero()) {
    return { filledBase: '0', averagePrice: null }
  }
  return {
    filledBase: decString(dec(seen.filledBase)),
    averagePrice: seen.averagePrice ?? known.averagePrice,
  }
}
