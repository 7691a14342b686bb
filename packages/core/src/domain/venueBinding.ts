import type { VenueId } from './venue.js'

export type VenueBindingStatus = 'bound' | 'unusable' | 'revoked'

/** A wallet's bound venue account. Filled by the binding worker. */
export interface VenueBindingRecord {
  readonly id: string
  readonly owner: string
  readonly venue: VenueId
  readonly status: VenueBindingStatus
  /** Lighter account index as a decimal string; null elsewhere */
  readonly accountIndex: string | null
  /** public part of the credential (agent address, Lighter key index...) */
  readonly credentialRef: string | null
  /** AES-256-GCM envelope of the venue credential; never plain text */
  readonly credentialCiphertext: string | null
  /**
   * why an `unusable` binding cannot be used, as a stable error code
   * (`credential_unreadable`); null for a bound or revoked one
   */
  readonly unusableCode: string | null
  readonly createdAt: string
  readonly updatedAt: string
}
