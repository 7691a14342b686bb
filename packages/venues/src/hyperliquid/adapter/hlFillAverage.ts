import { type Decimal, dec, decString } from '@dn/core'
import type { HlPost } from './hlTransport.js'

/** Hyperliquid pages `userFillsByTime` at 2000 fills. */
const PAGE = 2000
const MAX_PAGES = 10

/**
 * The volume-weighted average price of one order's fills, read from
 * `userFillsByTime` from the order's own timestamp on: `orderStatus` tells
 * how much filled but not at what price. Null when the fills found do not
 * add up to `filledBase` yet (the history lags the order by a moment).
 */
export async function hlFillAverage(
  post: HlPost,
  user: string,
  order: { readonly oid: number; readonly timestamp: number },
  filledBase: string,
): Promise<string | null> {
  let size: Decimal = dec(0)
  let notional: Decimal = dec(0)
  let startTime = order.timestamp
  for (let page = 0; page < MAX_PAGES; page++) {
    const raw = await post(
      '/info',
      { type: 'userFillsByTime', user, startTime },
      'read',
      'urgent',
    )
    if (!Array.isArray(raw)) return null
    let last = startTime
    for (const f of raw) {
      if (typeof f !== 'object' || f === null) continue
      const { oid, px, sz, time } = f as Record<string, unknown>
      if (typeof time === 'number') last = Math.max(last, time)
      if (oid !== order.oid || typeof px !== 'string' || typeof sz !== 'string')
        continue
      size = size.add(sz)
      notional = notional.add(dec(sz).mul(px))
    }
    if (raw.length < PAGE) break
    startTime = last + 1
  }
  if (size.isZero() || !size.eq(dec(filledBase))) return null
  // the venue's avgPx: full precision, no trailing zeros
  return decString(notional.div(size).toDecimalPlaces(12))
}
