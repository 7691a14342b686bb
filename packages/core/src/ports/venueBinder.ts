import type { SignRequest, VenueTarget } from '../domain/bindingBatch.js'
import type { VenueId } from '../domain/venue.js'

/** Server configuration that shapes the sign requests. */
export interface BindingConfig {
  /** include builder / integrator fee approvals */
  readonly feeApproval: boolean
  /** builder address for `hl` and `aster` fee approvals */
  readonly builderAddress: string
  /** builder name shown in Aster's agent approval */
  readonly builderName: string
  /** Lighter signer chain: production or testnet (300) */
  readonly lighterTestnet: boolean
}

/** The credential generated for the service, and what completing needs. */
export interface PreparedVenue {
  readonly requests: readonly SignRequest[]
  /** agent address, or Lighter `<accountIndex>:<apiKeyIndex>` */
  readonly credentialRef: string
  /** the secret to encrypt and keep (agent private key, Lighter key) */
  readonly secret: string
  readonly context: Readonly<Record<string, string>>
}

export type CompletionResult =
  | { readonly outcome: 'bound' }
  /** sent, outcome not yet visible: ask again later */
  | { readonly outcome: 'confirming' }
  | {
      readonly outcome: 'failed'
      readonly code: string
      readonly message: string
      readonly retryable: boolean
    }

/**
 * A venue's side of binding: account preflight, the sign requests (with a
 * credential generated for the service), signature checks, and the
 * external authorization once the wallet has signed. Errors:
 * VenueUnavailableError when the venue cannot be asked.
 */
export interface VenueBinder {
  readonly venue: VenueId
  /** `hl` role lookup; Lighter lookup by owner + accountIndex; Aster: none */
  findAccount(
    owner: string,
    target: VenueTarget,
  ): Promise<'found' | 'missing' | 'not_owned'>
  /**
   * The account indexes the venue lists for `owner`'s L1 address, for
   * venues that name accounts by index (Lighter): what a binding target's
   * `accountIndex` can be. Empty when the venue has no account for it.
   */
  listAccounts?(owner: string): Promise<readonly number[]>
  prepare(
    owner: string,
    target: VenueTarget,
    config: BindingConfig,
  ): Promise<PreparedVenue>
  /** True when `signature` over `request` recovers to `owner`. */
  verify(
    request: SignRequest,
    signature: string,
    owner: string,
  ): Promise<boolean>
  /** Sends the signed authorizations; confirms before reporting `bound`. */
  complete(
    owner: string,
    entry: {
      readonly target: VenueTarget
      readonly requests: readonly SignRequest[]
      readonly signatures: Readonly<Record<string, string>>
      readonly credentialRef: string
      readonly secret: string
      readonly context: Readonly<Record<string, string>>
    },
  ): Promise<CompletionResult>
  /** Is an existing credential still usable at the venue? */
  isUsable(owner: string, credentialRef: string): Promise<boolean>
}
