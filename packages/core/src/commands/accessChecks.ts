import type { ApiKeyRecord } from '../domain/apiKey.js'
import type { VenueId } from '../domain/venue.js'
import { ConflictError, ForbiddenError } from '../errors/domain.js'
import { CredentialUnreadableError } from '../errors/worker.js'
import type { Repos } from '../ports/store.js'

/** 403 unless the key grants every venue named. */
export function requireVenueGrant(
  key: ApiKeyRecord,
  venues: readonly VenueId[],
): void {
  const missing = venues.filter((v) => !key.venues.includes(v))
  if (missing.length > 0) {
    throw new ForbiddenError(
      'venue_not_granted',
      `this API key does not grant ${missing.join(', ')}; create a key that grants it`,
      { details: { venues: missing } },
    )
  }
}

export function grants(key: ApiKeyRecord, venues: readonly VenueId[]): boolean {
  return venues.every((v) => key.venues.includes(v))
}

/** 409 `venue_not_bound` with one issue per venue lacking a usable binding. */
export async function requireBoundVenues(
  repos: Pick<Repos, 'bindings'>,
  owner: string,
  venues: readonly VenueId[],
): Promise<void> {
  const issues: { venue: VenueId; code: string; message: string }[] = []
  for (const venue of new Set(venues)) {
    const binding = await repos.bindings.get(owner, venue)
    if (binding?.status !== 'bound') {
      issues.push(
        !binding
          ? {
              venue,
              code: 'venue_not_bound',
              message: `${venue} is not bound for this wallet; bind it with POST /v1/venue-bindings/prepare`,
            }
          : binding.unusableCode === CredentialUnreadableError.code
            ? {
                venue,
                code: CredentialUnreadableError.code,
                message: new CredentialUnreadableError(venue).message,
              }
            : {
                venue,
                code: 'binding_unusable',
                message: `the ${venue} binding is not usable; rebind it with rebind: true`,
              },
      )
    }
  }
  if (issues.length > 0) {
    throw new ConflictError(
      'venue_not_bound',
      `venue not bound: ${issues.map((i) => i.venue).join(', ')}`,
      { details: { issues } },
    )
  }
}
