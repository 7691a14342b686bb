import { dec, decString, type FundingPayment } from '@dn/core'
import {
  badAnswer,
  decField,
  intField,
  isObj,
  type Json,
} from './lighterWireValue.js'

/**
 * Funding payments of `positionFunding`: `timestamp` in Unix seconds,
 * `change` the USD credited (negative when paid), `position_size`
 * unsigned with `position_side` `long` / `short`.
 *
 * @throws {VenueUnavailableError} on an answer of the wrong shape.
 */
export function parseLighterFunding(
  raw: Json,
  market: string,
  marketId: number,
  sinceMs: number,
): FundingPayment[] {
  const rows = raw.position_fundings
  if (!Array.isArray(rows)) throw badAnswer('positionFunding', raw)
  const out: FundingPayment[] = []
  for (const r of rows) {
    if (!isObj(r)) throw badAnswer('positionFunding', raw)
    const ts = intField(r.timestamp)
    const change = decField(r.change)
    const rate = decField(r.rate)
    const size = decField(r.position_size)
    if (ts === null || change === null || rate === null || size === null) {
      throw badAnswer('positionFunding', raw)
    }
    if (intField(r.market_id) !== marketId || ts * 1000 < sinceMs) continue
    out.push({
      market,
      time: new Date(ts * 1000).toISOString(),
      amountUsd: change,
      rate,
      positionSize:
        r.position_side === 'short' ? decString(dec(size).abs().neg()) : size,
    })
  }
  return out.sort((a, b) => a.time.localeCompare(b.time))
}
