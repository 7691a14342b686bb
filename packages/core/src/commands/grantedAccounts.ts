import type { BoundAccountSnapshot } from '../domain/accountSnapshot.js'
import type { ApiKeyRecord } from '../domain/apiKey.js'
import type { VenueId } from '../domain/venue.js'
import type { Clock } from '../ports/clock.js'
import type { Repos } from '../ports/store.js'
import { requireVenueGrant } from './accessChecks.js'

/** What the account reads need: the store, never a venue. */
export interface AccountReadDeps {
  readonly store: Pick<Repos, 'accountSnapshots'>
  readonly clock: Clock
}

/**
 * The key owner's bound accounts on `venue`, or on every venue the key
 * grants, each with its latest stored snapshot.
 *
 * @throws {ForbiddenError} `venue_not_granted` for a venue not granted.
 */
export async function grantedAccounts(
  deps: AccountReadDeps,
  key: ApiKeyRecord,
  venue: VenueId | undefined,
): Promise<readonly BoundAccountSnapshot[]> {
  if (venue !== undefined) requireVenueGrant(key, [venue])
  return deps.store.accountSnapshots.listByOwner(
    key.owner,
    venue === undefined ? key.venues : [venue],
  )
}

/** How long before `now` an ISO read time was; null when never read. */
export function ageOf(readAt: string | null, now: number): number | null {
  return readAt === null ? null : Math.max(0, now - Date.parse(readAt))
}
