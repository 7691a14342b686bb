import type { BindingConfig, PreparedVenue, SignRequest } from '@dn/core'
import { lighterChangePubKeyRequest } from './changePubKeyRequest.js'
import {
  LIGHTER_INTEGRATOR_INDEX,
  lighterIntegratorConsentRequest,
} from './integratorConsentRequest.js'
import { lighterSignerChainId } from './lighterSignerChainId.js'
import type { LighterVenue } from './lighterVenue.js'

/**
 * A prepared Lighter binding: the owner signs the `Register Lighter
 * Account` message of a new API key in slot `apiKeyIndex` (and, with fee
 * approval, the integrator consent); the context carries what completing
 * checks and sends. The venue-facing parts (free slot, nonce, key) are the
 * caller's: the real binder asks Lighter, the simulated one its memory.
 */
export function prepareLighterBinding(p: {
  readonly venue: LighterVenue
  readonly owner: string
  readonly config: BindingConfig
  readonly accountIndex: number
  readonly apiKeyIndex: number
  /** the slot's next nonce, which the registration message carries */
  readonly nonce: number
  readonly keys: { readonly privateKey: string; readonly publicKey: string }
  /** the L1 message for the new key (the signer's `changePubKeyL1Message`) */
  readonly message: string
  readonly consentNonce: number
  readonly nowMs: number
}): PreparedVenue {
  const requests: SignRequest[] = [
    lighterChangePubKeyRequest({ venue: p.venue, message: p.message }),
  ]
  const context: Record<string, string> = {
    accountIndex: String(p.accountIndex),
    apiKeyIndex: String(p.apiKeyIndex),
    nonce: String(p.nonce),
    publicKey: p.keys.publicKey,
    signerChainId: String(
      lighterSignerChainId(p.venue, p.config.lighterTestnet),
    ),
    feeApproval: String(p.config.feeApproval),
  }
  if (p.config.feeApproval) {
    const timestamp = Math.floor(p.nowMs / 1000)
    requests.push(
      lighterIntegratorConsentRequest({
        venue: p.venue,
        owner: p.owner,
        nonce: p.consentNonce,
        timestamp,
      }),
    )
    context.integratorIndex = String(LIGHTER_INTEGRATOR_INDEX[p.venue])
    context.consentNonce = String(p.consentNonce)
    context.consentTimestamp = String(timestamp)
  }
  return {
    requests,
    credentialRef: `${p.accountIndex}:${p.apiKeyIndex}`,
    secret: p.keys.privateKey,
    context,
  }
}
