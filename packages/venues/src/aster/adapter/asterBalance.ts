import type { VenueBalance } from '@dn/core'
import { decField, isObj } from '../../wire/jsonFields.js'

/** The account read balances come from (weight 5, as `positionRisk`). */
export const ASTER_ACCOUNT_PATH = '/fapi/v3/accountWithJoinMargin'

/**
 * The account totals of `GET /fapi/v3/accountWithJoinMargin`:
 * `totalMarginBalance` (wallet balance with unrealized PnL: equity),
 * `availableBalance` and `totalInitialMargin` (margin used); undefined
 * when one is missing or not a decimal.
 */
export function parseAsterBalance(
  raw: unknown,
  at: number,
): VenueBalance | undefined {
  if (!isObj(raw)) return undefined
  const equityUsd = decField(raw.totalMarginBalance)
  const availableUsd = decField(raw.availableBalance)
  const marginUsedUsd = decField(raw.totalInitialMargin)
  if (equityUsd === null || availableUsd === null || marginUsedUsd === null) {
    return undefined
  }
  return { equityUsd, availableUsd, marginUsedUsd, at }
}
