import type { ApiKeyRecord } from '../domain/apiKey.js'
import type { VenueId } from '../domain/venue.js'
import type { BalanceList } from '../schemas/accountReads.js'
import { decString } from '../util/decimal.js'
import {
  type AccountReadDeps,
  ageOf,
  grantedAccounts,
} from './grantedAccounts.js'

/**
 * The collateral of the key owner's bound accounts (on `venue`, or every
 * venue the key grants), as the worker last read it, with the read's age.
 * Served from the store: never a venue call. An account whose balance was
 * not read yet is listed with nulls.
 *
 * @throws {ForbiddenError} `venue_not_granted` for a venue not granted.
 */
export async function listBalances(
  deps: AccountReadDeps,
  key: ApiKeyRecord,
  venue?: VenueId,
): Promise<BalanceList> {
  const accounts = await grantedAccounts(deps, key, venue)
  const now = deps.clock.now()
  return {
    accounts: accounts.map((a) => {
      const balance = a.snapshot?.balance ?? null
      const readAt = balance ? (a.snapshot?.balanceReadAt ?? null) : null
      return {
        venue: a.venue,
        accountIndex: a.accountIndex,
        readAt,
        ageMs: ageOf(readAt, now),
        equityUsd: balance && decString(balance.equityUsd),
        availableUsd: balance && decString(balance.availableUsd),
        marginUsedUsd: balance && decString(balance.marginUsedUsd),
      }
    }),
  }
}
