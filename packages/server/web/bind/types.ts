/** The wire shapes this page reads (the service's OpenAPI document). */

export type Venue = 'hl' | 'aster' | 'lighter' | 'lighter-mainnet'

export const VENUES: readonly Venue[] = [
  'hl',
  'aster',
  'lighter',
  'lighter-mainnet',
]

export const VENUE_NAMES: Readonly<Record<Venue, string>> = {
  hl: 'Hyperliquid',
  aster: 'Aster',
  lighter: 'Lighter',
  'lighter-mainnet': 'Lighter (mainnet)',
}

export const isLighter = (v: Venue): boolean =>
  v === 'lighter' || v === 'lighter-mainnet'

export type SignRequest =
  | {
      readonly requestId: string
      readonly venue: Venue
      readonly action: string
      readonly method: 'personal_sign'
      readonly payload: { readonly message: string }
    }
  | {
      readonly requestId: string
      readonly venue: Venue
      readonly action: string
      readonly method: 'eth_signTypedData_v4'
      readonly payload: {
        readonly domain: Record<string, unknown>
        readonly types: Record<
          string,
          readonly { name: string; type: string }[]
        >
        readonly primaryType: string
        readonly message: Record<string, unknown>
      }
    }

export type VenueResultStatus =
  | 'awaiting_signatures'
  | 'queued'
  | 'confirming'
  | 'bound'
  | 'already_bound'
  | 'failed'
  | 'expired'

export interface VenueBindingBatch {
  readonly bindingId: string
  readonly owner: string
  readonly expiresAt: string
  readonly status:
    | 'awaiting_signatures'
    | 'processing'
    | 'bound'
    | 'partial_success'
    | 'failed'
  readonly results: readonly {
    readonly venue: Venue
    readonly sessionId: string | null
    readonly status: VenueResultStatus
    readonly code?: string
    readonly retryable?: boolean
  }[]
  readonly signRequests: readonly SignRequest[]
}

export interface BindingTarget {
  readonly venue: Venue
  readonly accountIndex?: number
  readonly signatureChainId?: number
  readonly rebind?: boolean
}

export interface VenueAccountList {
  readonly venues: readonly {
    readonly venue: Venue
    readonly status: 'found' | 'missing' | 'unavailable'
    readonly accountIndexes: readonly number[]
  }[]
}

export interface CreatedApiKey {
  readonly keyId: string
  readonly apiKey: string
  readonly venues: readonly Venue[]
  readonly maxSizeUsd: number
}
