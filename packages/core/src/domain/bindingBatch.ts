import type { Lease } from './lease.js'
import type { VenueId } from './venue.js'

export type BindingBatchStatus =
  | 'awaiting_signatures'
  | 'processing'
  | 'bound'
  | 'partial_success'
  | 'failed'

export type VenueBindingState =
  | 'awaiting_signatures'
  | 'queued'
  | 'confirming'
  | 'bound'
  | 'already_bound'
  | 'failed'
  | 'expired'

export type SignAction =
  | 'approveAgent'
  | 'approveBuilderFee'
  | 'changePubKey'
  | 'approveIntegrator'

export interface TypedDataPayload {
  readonly domain: Record<string, unknown>
  readonly types: Record<string, readonly { name: string; type: string }[]>
  readonly primaryType: string
  readonly message: Record<string, unknown>
}

/** One signature the wallet must give, exactly as the contract shows it. */
export type SignRequest =
  | {
      readonly requestId: string
      readonly venue: VenueId
      readonly action: SignAction
      readonly method: 'personal_sign'
      readonly payload: { readonly message: string }
    }
  | {
      readonly requestId: string
      readonly venue: VenueId
      readonly action: SignAction
      readonly method: 'eth_signTypedData_v4'
      readonly payload: TypedDataPayload
    }

/** What the caller asked for one venue (the contract's VenueTarget). */
export interface VenueTarget {
  readonly venue: VenueId
  readonly signatureChainId?: number | undefined
  readonly accountIndex?: number | undefined
  readonly rebind?: boolean | undefined
}

/** One venue of a batch: its requests, signatures and outcome. */
export interface BindingVenueEntry {
  readonly target: VenueTarget
  readonly status: VenueBindingState
  /** opaque id of this venue's session; null when already bound */
  readonly sessionId: string | null
  readonly code: string | null
  readonly retryable: boolean | null
  readonly requests: readonly SignRequest[]
  /** accepted signatures by requestId; never returned to clients */
  readonly signatures: Readonly<Record<string, string>>
  /** public part of the generated credential (agent address, key index) */
  readonly credentialRef: string | null
  /** AES-256-GCM envelope of the generated secret (agent key, API key) */
  readonly credentialCiphertext: string | null
  /** venue-specific values the completion step needs (nonces, indexes) */
  readonly context: Readonly<Record<string, string>>
}

export interface BindingBatchRecord extends Lease {
  readonly id: string
  readonly owner: string
  /** the prepare authorization nonce; (owner, nonce) is unique */
  readonly nonce: string
  /** hex SHA-256 of the canonical signed prepare payload */
  readonly requestHash: string
  readonly status: BindingBatchStatus
  readonly expiresAt: string
  readonly venues: readonly BindingVenueEntry[]
  readonly createdAt: string
  readonly updatedAt: string
}
