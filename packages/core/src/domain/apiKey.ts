import type { VenueId } from './venue.js'

/** A stored API key. The secret itself is never stored, only its keyed hash. */
export interface ApiKeyRecord {
  readonly id: string
  readonly owner: string
  readonly env: string
  readonly venues: readonly VenueId[]
  readonly maxSizeUsd: string
  readonly label: string | null
  /** hex HMAC-SHA256 of the secret under the deployment's pepper */
  readonly secretHash: string
  readonly createdAt: string
  readonly revokedAt: string | null
}
