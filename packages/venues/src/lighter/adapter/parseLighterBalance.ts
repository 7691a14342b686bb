import type { VenueBalance } from '@dn/core'
import { decField, isObj, type Json } from './lighterWireValue.js'

/**
 * The collateral `account?by=index` carries beside its positions:
 * `total_asset_value` (equity), `available_balance` and
 * `cross_initial_margin_requirement` (margin used); undefined when one is
 * missing or not a decimal (the positions of the same answer still serve).
 */
export function parseLighterBalance(
  raw: Json,
  at: number,
): VenueBalance | undefined {
  const account = Array.isArray(raw.accounts) ? raw.accounts[0] : undefined
  if (!isObj(account)) return undefined
  const equityUsd = decField(account.total_asset_value)
  const availableUsd = decField(account.available_balance)
  const marginUsedUsd = decField(account.cross_initial_margin_requirement)
  if (equityUsd === null || availableUsd === null || marginUsedUsd === null) {
    return undefined
  }
  return { equityUsd, availableUsd, marginUsedUsd, at }
}
