import { invalidParam } from './asterFakeError.js'
import type { AsterFakeState } from './asterFakeState.js'

/**
 * `GET /fapi/v3/fundingRate` (weight 1): `[{symbol, fundingRate,
 * fundingTime}]` ascending, as the futures v3 doc's "Get Funding Rate
 * History" shows it — the rate the fake last published for each engine
 * settlement it saw coming and that has passed (the engine keeps no rate
 * history). Without `startTime`/`endTime` the most recent `limit`
 * (default 100, max 1000); with them, from `startTime` on.
 */
export function fundingRateHistory(
  state: AsterFakeState,
  q: URLSearchParams,
): { symbol: string; fundingRate: string; fundingTime: number }[] {
  const symbol = q.get('symbol')
  const limit = Number(q.get('limit') ?? 100)
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > 1000) {
    throw invalidParam('limit')
  }
  const now = state.now()
  const startRaw = q.get('startTime')
  const start = Number(startRaw ?? 0)
  const end = Number(q.get('endTime') ?? now)
  if (!Number.isFinite(start) || !Number.isFinite(end)) {
    throw invalidParam('startTime')
  }
  const rows: { symbol: string; fundingRate: string; fundingTime: number }[] =
    []
  for (const [s, seen] of state.fundingSeen) {
    if (symbol !== null && s !== symbol) continue
    for (const [t, rate] of seen) {
      if (t <= now && t >= start && t <= end) {
        rows.push({ symbol: s, fundingRate: rate, fundingTime: t })
      }
    }
  }
  rows.sort((a, b) => a.fundingTime - b.fundingTime)
  return startRaw === null ? rows.slice(-limit) : rows.slice(0, limit)
}
