import { hourStart } from '@dn/core'

/**
 * The shared funding-history read a lookup from `sinceMs` joins: one per
 * account and hour. Each task asks from its own cursor (its creation, or
 * its last booked payment on either leg's venue plus 1 ms), so a read
 * keyed by the exact cursor served one task: at 100 Hyperliquid accounts
 * a settlement sent a `userFunding` (weight 20) per task leg, not per
 * account. Venues settle on the hour, so one read from the cursor's hour
 * serves every cursor in it, each keeping the rows at or after its own.
 * @example fundingReadKey('0xab', Date.parse('2026-11-26T10:17:03Z'))
 * // { key: '0xab|1795686000000', startTime: 1795686000000 }
 */
export function fundingReadKey(
  account: string,
  sinceMs: number,
): { readonly key: string; readonly startTime: number } {
  const startTime = hourStart(sinceMs)
  return { key: `${account.toLowerCase()}|${startTime}`, startTime }
}
