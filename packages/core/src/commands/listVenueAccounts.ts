import {
  verifyWalletRead,
  type WalletRead,
} from '../auth/verifyWalletSignature.js'
import type { VenueId } from '../domain/venue.js'
import { RateLimitedError } from '../errors/domain.js'
import { VenueUnavailableError } from '../errors/venue.js'
import type { RateLimiter } from '../limits/rateLimiter.js'
import type { Clock } from '../ports/clock.js'
import type { VenueBinder } from '../ports/venueBinder.js'
import type {
  VenueAccountList,
  VenueAccounts,
} from '../schemas/venueAccountList.js'

export interface ListVenueAccountsDeps {
  readonly clock: Clock
  /** BINDING_AUTH_DOMAIN */
  readonly authDomain: string
  readonly binders: Readonly<Record<VenueId, VenueBinder>>
  /** each look-up asks the venues: counted per owner */
  readonly rateLimiter: RateLimiter
}

/**
 * The accounts the venues that name accounts by index (Lighter) list for
 * the wallet's address, for a `list_venue_accounts` read signed like
 * `list_venue_bindings` (`{owner, expiresAt}`): what a binding target's
 * `accountIndex` can be, so a person can pick one instead of knowing it.
 * A venue that cannot be asked now is `unavailable`, the others still
 * answer.
 *
 * @throws {UnauthorizedError} a bad or expired signature
 * @throws {RateLimitedError} past the owner's look-ups per minute
 */
export async function listVenueAccounts(
  deps: ListVenueAccountsDeps,
  p: WalletRead,
): Promise<VenueAccountList> {
  const owner = await verifyWalletRead({
    ...p,
    domain: deps.authDomain,
    action: 'list_venue_accounts',
    nowMs: deps.clock.now(),
  })
  const hit = await deps.rateLimiter.hit(`venue-accounts:${owner}`)
  if (!hit.allowed) {
    throw new RateLimitedError(
      hit.resetMs / 1000,
      `at most ${deps.rateLimiter.limit} account look-ups per minute`,
    )
  }
  const binders = Object.values(deps.binders).filter(
    (b) => b.listAccounts !== undefined,
  )
  const venues = await Promise.all(binders.map((b) => accountsAt(b, owner)))
  return { venues: venues.sort((a, b) => a.venue.localeCompare(b.venue)) }
}

async function accountsAt(
  binder: VenueBinder,
  owner: string,
): Promise<VenueAccounts> {
  try {
    const listed = (await binder.listAccounts?.(owner)) ?? []
    const accountIndexes = [...new Set(listed)].sort((a, b) => a - b)
    return {
      venue: binder.venue,
      status: accountIndexes.length > 0 ? 'found' : 'missing',
      accountIndexes,
    }
  } catch (err) {
    if (!(err instanceof VenueUnavailableError)) throw err
    return { venue: binder.venue, status: 'unavailable', accountIndexes: [] }
  }
}
