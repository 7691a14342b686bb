import type { VenueBalance } from '@dn/core'
import { decField, isObj } from '../../wire/jsonFields.js'

/**
 * The collateral a `clearinghouseState` carries beside its positions:
 * `marginSummary.accountValue` (equity), `withdrawable` (available) and
 * `marginSummary.totalMarginUsed`; undefined when a field is missing or
 * not a decimal, else dated `at` (the positions of the same answer still serve).
 */
export function parseHlBalance(
  raw: unknown,
  at: number,
): VenueBalance | undefined {
  if (!isObj(raw) || !isObj(raw.marginSummary)) return undefined
  const equityUsd = decField(raw.marginSummary.accountValue)
  const marginUsedUsd = decField(raw.marginSummary.totalMarginUsed)
  const availableUsd = decField(raw.withdrawable)
  if (equityUsd === null || marginUsedUsd === null || availableUsd === null) {
    return undefined
  }
  return { equityUsd, availableUsd, marginUsedUsd, at }
}
