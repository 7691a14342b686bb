import { type Decimal, dec } from '@dn/core'
import type { SimMarketState, SimState } from './simState.js'
import { type SimBook, type SimLevel, syntheticBook } from './syntheticBook.js'

/**
 * The synthetic book minus what takers already consumed at this step and
 * mark: liquidity refills only when the mark moves or a step passes, so
 * splitting a large order into small ones does not dodge the slippage.
 */
export function liveBook(state: SimState, m: SimMarketState): SimBook {
  const key = `${state.step}|${m.walk.mark.toString()}`
  if (m.taken.key !== key) {
    m.taken = { key, bids: new Map(), asks: new Map() }
  }
  if (m.taken.live === undefined) {
    const book = syntheticBook(m.market, m.walk.mark)
    m.taken.live = {
      bids: remaining(book.bids, m.taken.bids),
      asks: remaining(book.asks, m.taken.asks),
    }
  }
  return m.taken.live
}

function remaining(
  levels: readonly SimLevel[],
  taken: Map<string, Decimal>,
): SimLevel[] {
  const out: SimLevel[] = []
  for (const level of levels) {
    const size = level.size.sub(taken.get(level.price.toString()) ?? 0)
    if (size.gt(0)) out.push({ price: level.price, size })
  }
  return out
}

/** Records `qty` taken at `price` on one side of the live book. */
export function takeFromBook(
  m: SimMarketState,
  side: 'bids' | 'asks',
  price: Decimal,
  qty: Decimal,
): void {
  const taken = m.taken[side]
  m.taken.live = undefined
  const key = price.toString()
  taken.set(key, (taken.get(key) ?? dec(0)).add(qty))
}
