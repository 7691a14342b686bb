import type { OrderSide } from '../domain/perpOrder.js'
import type { VenuePosition } from '../ports/venueAdapter.js'
import { dec, decString } from '../util/decimal.js'

/** One fill of our own order, as its answer tells it. */
interface OwnFill {
  readonly market: string
  readonly side: OrderSide
  /** base filled since the fill last applied, > 0 */
  readonly base: string
  /** average price of the order's fills; null when the venue gave none */
  readonly price: string | null
}

/**
 * An account's positions with one of our fills applied, between two venue
 * reads: the size moves by the fill; a grown position's entry is the
 * weighted average of what was held and what was added. Its liquidation
 * price becomes unknown (null: the venue's next read tells it) when the
 * position grew or turned, since it then lies nearer the mark than the
 * old one; a position that only shrank keeps the old one, which lies
 * nearer the mark than the true one, so protection errs early. A position
 * brought to zero leaves the list, as a venue read would show it.
 * @returns undefined when the fill opens a position the list does not
 *   hold: its leverage and margin mode are the venue's to tell
 */
export function applyOwnFill(
  positions: readonly VenuePosition[],
  fill: OwnFill,
): VenuePosition[] | undefined {
  const held = positions.find((p) => p.market === fill.market)
  if (!held) return undefined
  const others = positions.filter((p) => p !== held)
  const signed = fill.side === 'long' ? dec(fill.base) : dec(fill.base).neg()
  const before = dec(held.size)
  const after = before.add(signed)
  if (after.isZero()) return others
  const grew = before.isPositive() === signed.isPositive()
  const turned = before.isPositive() !== after.isPositive()
  const price = fill.price ?? held.entryPrice
  let entryPrice = held.entryPrice
  if (turned) entryPrice = price
  else if (grew) {
    entryPrice = decString(
      before
        .abs()
        .mul(held.entryPrice)
        .add(dec(fill.base).mul(price))
        .div(after.abs())
        .toDecimalPlaces(8),
    )
  }
  return [
    ...others,
    {
      ...held,
      size: decString(after),
      entryPrice,
      liquidationPrice: grew || turned ? null : held.liquidationPrice,
    },
  ]
}
