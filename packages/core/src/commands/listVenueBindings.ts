import {
  verifyWalletRead,
  type WalletRead,
} from '../auth/verifyWalletSignature.js'
import type { VenueBindingRecord } from '../domain/venueBinding.js'
import type { Clock } from '../ports/clock.js'
import type { Store } from '../ports/store.js'
import type { BoundVenue } from '../schemas/venueBindingList.js'

export interface ListVenueBindingsDeps {
  readonly store: Store
  readonly clock: Clock
  readonly authDomain: string
}

const view = (b: VenueBindingRecord): BoundVenue => ({
  venue: b.venue,
  status: b.status,
  accountIndex: b.accountIndex,
  credentialRef: b.credentialRef,
  unusableCode: b.unusableCode,
  createdAt: b.createdAt,
  updatedAt: b.updatedAt,
})

/**
 * What a wallet has bound, for a `list_venue_bindings` read signed like
 * `list_api_keys` (`{owner, expiresAt}`): the venue, its state and the
 * Lighter account index, never a credential.
 */
export async function listVenueBindings(
  deps: ListVenueBindingsDeps,
  p: WalletRead,
): Promise<{ bindings: BoundVenue[] }> {
  const owner = await verifyWalletRead({
    ...p,
    domain: deps.authDomain,
    action: 'list_venue_bindings',
    nowMs: deps.clock.now(),
  })
  const rows = await deps.store.bindings.listByOwner(owner)
  return {
    bindings: rows.map(view).sort((a, b) => a.venue.localeCompare(b.venue)),
  }
}
