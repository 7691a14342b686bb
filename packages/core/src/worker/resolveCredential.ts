import type { VenueId } from '../domain/venue.js'
import { CredentialUnavailableError } from '../errors/worker.js'
import type { Secrets } from '../ports/secrets.js'
import type { Repos } from '../ports/store.js'
import type { VenueCredential } from '../ports/venueAdapter.js'

/** Additional data binding a credential ciphertext to its binding row. */
export function credentialAad(owner: string, venue: VenueId): string {
  return `venue-binding|${owner}|${venue}`
}

/** Loads and decrypts the owner's credential for a venue. */
export async function resolveCredential(
  repos: Pick<Repos, 'bindings'>,
  secrets: Secrets,
  owner: string,
  venue: VenueId,
): Promise<VenueCredential> {
  const binding = await repos.bindings.get(owner, venue)
  if (binding?.status !== 'bound') {
    throw new CredentialUnavailableError(`${venue} is not bound for ${owner}`)
  }
  return {
    owner,
    venue,
    accountIndex: binding.accountIndex,
    credentialRef: binding.credentialRef,
    secret:
      binding.credentialCiphertext === null
        ? null
        : secrets.decrypt(
            binding.credentialCiphertext,
            credentialAad(owner, venue),
          ),
  }
}
