import { type Decimal, dec, decString, type RequestPriority } from '@dn/core'
import type { HlPost } from './hlTransport.js'

/** Hyperliquid pages `userFillsByTime` at 2000 fills. */
const PAGE = 2000
const MAX_PAGES = 10

/** What one order's fills add up to. */
interface HlOrderFills {
  /** the volume-weighted average price: the venue's avgPx */
  readonly averagePrice: string
  /**
   * the venue's own trading fee, USD: each fill's `fee` less its
   * `builderFee` (the builder's part, which the worker books apart);
   * null when a fill pays its fee in another token than USDC
   */
  readonly feeUsd: string | null
}

/**
 * One order's fills, read from `userFillsByTime` from `startTime` (the
 * order's timestamp, or before) on: neither `orderStatus` nor the order
 * answer tells the prices or fees. Null when the fills found do not add up
 * to `filledBase` yet (the history lags the order by a moment).
 */
export async function hlOrderFills(
  post: HlPost,
  user: string,
  order: { readonly oid: number; readonly startTime: number },
  filledBase: string,
  priority: RequestPriority,
): Promise<HlOrderFills | null> {
  let size: Decimal = dec(0)
  let notional: Decimal = dec(0)
  let fee: Decimal | null = dec(0)
  let startTime = order.startTime
  for (let page = 0; page < MAX_PAGES; page++) {
    const raw = await post(
      '/info',
      { type: 'userFillsByTime', user, startTime },
      'read',
      priority,
    )
    if (!Array.isArray(raw)) return null
    let last = startTime
    for (const f of raw) {
      if (typeof f !== 'object' || f === null) continue
      const r = f as Record<string, unknown>
      if (typeof r.time === 'number') last = Math.max(last, r.time)
      if (r.oid !== order.oid || typeof r.px !== 'string') continue
      if (typeof r.sz !== 'string') continue
      size = size.add(r.sz)
      notional = notional.add(dec(r.sz).mul(r.px))
      fee = addFee(fee, r)
    }
    if (raw.length < PAGE) break
    startTime = last + 1
  }
  if (size.isZero() || !size.eq(dec(filledBase))) return null
  return {
    // the venue's avgPx: full precision, no trailing zeros
    averagePrice: decString(notional.div(size).toDecimalPlaces(12)),
    feeUsd: fee === null ? null : decString(fee),
  }
}

function addFee(sum: Decimal | null, f: Record<string, unknown>) {
  if (sum === null || typeof f.fee !== 'string') return null
  if (f.feeToken !== undefined && f.feeToken !== 'USDC') return null
  const builder = typeof f.builderFee === 'string' ? f.builderFee : '0'
  return sum.add(f.fee).sub(builder)
}

/** Orders whose fills a memo keeps; the oldest go first. */
const MEMO_ORDERS = 2_048

/**
 * {@link hlOrderFills} that reads each order's fills once per filled size:
 * fills never change once made, so while `orderStatus` shows the same
 * filled size, the same fills add up to it. A lookup repeated every second
 * (a resting, partly filled order; an order reconciled after a lost answer)
 * then costs `orderStatus` alone (weight 2), not another `userFillsByTime`
 * (20 and more per 20 fills returned) each time.
 */
export function memoizedHlOrderFills(): typeof hlOrderFills {
  const known = new Map<string, HlOrderFills>()
  return async (post, user, order, filledBase, priority) => {
    const key = `${user.toLowerCase()}|${order.oid}|${filledBase}`
    const hit = known.get(key)
    if (hit) return hit
    const fills = await hlOrderFills(post, user, order, filledBase, priority)
    // null: the history lags the order; asked again next time
    if (fills) {
      known.set(key, fills)
      if (known.size > MEMO_ORDERS) {
        known.delete(known.keys().next().value as string)
      }
    }
    return fills
  }
}
