import { type Decimal, dec, decString } from '../util/decimal.js'

/**
 * One holder of a venue account's position in one market: a task leg, or
 * the owner's direct orders there taken together. Signed amounts,
 * positive long, negative short.
 */
export interface LedgerHolder {
  /** e.g. `task 0b7… long`, `direct orders` */
  readonly id: string
  /** the task whose leg it is; absent for the direct orders */
  readonly taskId?: string | undefined
  readonly leg?: 'long' | 'short' | undefined
  /**
   * the part of the task's leg its close left at the venue (too small for
   * an order there), not the leg itself
   */
  readonly leftAtVenue?: true | undefined
  /** what the fills of its own orders booked so far add up to */
  readonly position: string
  /** what its orders in flight may still buy (≥ 0) */
  readonly mayBuy: string
  /** what its orders in flight may still sell (≥ 0) */
  readonly maySell: string
}

/** An account market's holders against the venue's net position there. */
export interface LedgerReading {
  /** the holders' booked positions added up */
  readonly sum: string
  readonly venueNet: string
  /**
   * what the venue holds beyond what the holders' booked fills and the
   * orders they have in flight can explain (0 when they explain it): a
   * liquidation, an auto-deleverage, a trade made on the venue directly,
   * venue state lost
   */
  readonly external: string
  /** each holder's position once `external` is attributed, by id */
  readonly attributed: ReadonlyMap<string, string>
  /** the part of `external` no holder took (a position no one in dn holds) */
  readonly unattributed: string
}

/**
 * Reads an account market's ledger against the venue's net position and
 * attributes any difference to its holders, by one rule:
 *
 * - The holders explain every net from their sum with all their orders in
 *   flight selling to the sum with all of them buying; a net in that range
 *   is no difference at all.
 * - A net beyond it, on the near side of zero (the venue holds less of
 *   what the holders hold), is taken from the holders on that side, in
 *   proportion to their positions, none beyond zero: a liquidation or an
 *   auto-deleverage shrinks what was there, all of it alike.
 * - Whatever is left, and any net the holders do not hold at all (the
 *   venue holds more, or the holders cancel out), is no holder's:
 *   `unattributed`. It never changes a holder's position.
 */
export function readLedger(
  holders: readonly LedgerHolder[],
  venueNet: string,
): LedgerReading {
  const net = dec(venueNet)
  let sum = dec(0)
  let buy = dec(0)
  let sell = dec(0)
  for (const h of holders) {
    sum = sum.add(h.position)
    buy = buy.add(h.mayBuy)
    sell = sell.add(h.maySell)
  }
  const lo = sum.sub(sell)
  const hi = sum.add(buy)
  const own = new Map(holders.map((h) => [h.id, decString(h.position)]))
  const reading = (
    external: Decimal,
    attributed: Map<string, string>,
    unattributed: Decimal,
  ): LedgerReading => ({
    sum: decString(sum),
    venueNet: decString(net),
    external: decString(external),
    attributed,
    unattributed: decString(unattributed),
  })
  if (net.gte(lo) && net.lte(hi)) return reading(dec(0), own, dec(0))
  const bound = net.lt(lo) ? lo : hi
  const external = net.sub(bound)
  // the venue holds less on the bound's side: taken from that side
  const side = bound.isZero() ? 0 : bound.gt(0) ? 1 : -1
  const shrinks = side !== 0 && external.isPositive() !== side > 0
  if (!shrinks) return reading(external, own, external)
  const onSide = holders.filter((h) => dec(h.position).mul(side).gt(0))
  const capacity = onSide.reduce((s, h) => s.add(dec(h.position).abs()), dec(0))
  const taken = smaller(external.abs(), capacity)
  const attributed = new Map(own)
  if (capacity.gt(0)) {
    for (const h of onSide) {
      const share = taken.mul(dec(h.position).abs()).div(capacity)
      attributed.set(h.id, decString(dec(h.position).sub(share.mul(side))))
    }
  }
  return reading(external, attributed, external.add(taken.mul(side)))
}

function smaller(a: Decimal, b: Decimal): Decimal {
  return a.lt(b) ? a : b
}

/**
 * Whether a holder's attributed position is gone: nothing left on the
 * side its own position is on (a holder at zero has nothing to lose).
 */
export function holderGone(own: string, attributed: string): boolean {
  const o = dec(own)
  if (o.isZero()) return false
  return dec(attributed)
    .mul(o.isPositive() ? 1 : -1)
    .lte(0)
}

/**
 * Whether an order of `side` and `size` only reduces the venue's net
 * position `venueNet` (signed): the one case a venue accepts it as
 * reduce-only. An order past zero, or one that adds, is not.
 */
export function reducesNet(
  side: 'long' | 'short',
  size: string,
  venueNet: string,
): boolean {
  const net = dec(venueNet)
  if (net.isZero()) return false
  const sells = side === 'short'
  return sells === net.isPositive() && dec(size).lte(net.abs())
}
