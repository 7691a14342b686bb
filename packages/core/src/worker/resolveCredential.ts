import type { VenueId } from '../domain/venue.js'
import {
  CredentialUnavailableError,
  CredentialUnreadableError,
} from '../errors/worker.js'
import type { Secrets } from '../ports/secrets.js'
import type { BindingUnusableMark, VenueBindingRepo } from '../ports/store.js'
import type { VenueCredential } from '../ports/venueAdapter.js'
import { msToIso } from '../util/time.js'
import type { WorkerDeps, WorkerLogger } from './workerDeps.js'

/** Additional data binding a credential ciphertext to its binding row. */
export function credentialAad(owner: string, venue: VenueId): string {
  return `venue-binding|${owner}|${venue}`
}

export interface ResolveCredentialOptions {
  /**
   * Given by the worker: a credential that does not decrypt marks its
   * binding unusable (`credential_unreadable`), logged here by the one
   * caller that marks it. Without it (API lookups) nothing is written.
   */
  readonly logger?: Pick<WorkerLogger, 'error'> | undefined
  /** when the binding is marked (ms) @default Date.now() */
  readonly now?: number | undefined
}

/**
 * Loads and decrypts the owner's credential for a venue.
 * @throws {CredentialUnreadableError} when the stored credential does not
 * decrypt, now or when its binding was marked so before
 * @throws {CredentialUnavailableError} when the venue is not bound, or its
 * binding is unusable for another reason
 */
export async function resolveCredential(
  repos: { readonly bindings: Pick<VenueBindingRepo, 'get' | 'markUnusable'> },
  secrets: Secrets,
  owner: string,
  venue: VenueId,
  options: ResolveCredentialOptions = {},
): Promise<VenueCredential> {
  const binding = await repos.bindings.get(owner, venue)
  if (
    binding?.status === 'unusable' &&
    binding.unusableCode === CredentialUnreadableError.code
  ) {
    throw new CredentialUnreadableError(venue)
  }
  if (binding?.status !== 'bound') {
    throw new CredentialUnavailableError(`${venue} is not bound for ${owner}`)
  }
  const ciphertext = binding.credentialCiphertext
  let secret: string | null = null
  if (ciphertext !== null) {
    try {
      secret = secrets.decrypt(ciphertext, credentialAad(owner, venue))
    } catch (cause) {
      const { logger } = options
      if (logger) {
        const marked = await repos.bindings.markUnusable({
          owner,
          venue,
          credentialCiphertext: ciphertext,
          code: CredentialUnreadableError.code,
          updatedAt: msToIso(options.now ?? Date.now()),
        })
        // every later caller finds the mark: one line, not one per retry
        if (marked) {
          logger.error('venue credential unreadable; binding marked unusable', {
            code: CredentialUnreadableError.code,
            owner,
            venue,
            bindingId: binding.id,
            reason: cause instanceof Error ? cause.message : String(cause),
          })
        }
      }
      throw new CredentialUnreadableError(venue, { cause })
    }
  }
  return {
    owner,
    venue,
    accountIndex: binding.accountIndex,
    credentialRef: binding.credentialRef,
    secret,
  }
}

/**
 * What an order or task shows for a credential it could not use: an
 * unreadable one leads with its code, so a client can tell it from
 * other errors in the `error` text alone (orders have no code field).
 */
export function credentialErrorText(err: CredentialUnavailableError): string {
  return err instanceof CredentialUnreadableError
    ? `${err.code}: ${err.message}`
    : err.message
}

/**
 * The owner's credential for `venue` as a worker step sees it (see
 * `WorkerDeps.bindings`), decrypted; an unreadable one marks its binding.
 */
export function workerCredential(
  deps: WorkerDeps,
  owner: string,
  venue: VenueId,
  now: number,
): Promise<VenueCredential> {
  const { store } = deps
  const lookup = deps.bindings ?? store.bindings
  const bindings = {
    get: (o: string, v: VenueId) => lookup.get(o, v),
    markUnusable: (mark: BindingUnusableMark) =>
      store.bindings.markUnusable(mark),
  }
  return resolveCredential({ bindings }, deps.secrets, owner, venue, {
    logger: deps.logger,
    now,
  })
}
