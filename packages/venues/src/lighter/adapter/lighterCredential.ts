import { type VenueCredential, VenueRejectedError } from '@dn/core'
import { parseLighterPrivateKey } from '../signer/lighterKeys.js'

/** The signing identity a Lighter credential names. */
export interface LighterSigningKey {
  readonly accountIndex: number
  readonly apiKeyIndex: number
  /** 0x + 80 hex */
  readonly privateKey: string
  /** the account owner's L1 address, lowercased: its rate limits apply */
  readonly l1Address: string
}

const REF = /^(\d{1,16}):(\d{1,3})$/

/**
 * Reads a Lighter credential: `accountIndex`, `credentialRef`
 * `<accountIndex>:<apiKeyIndex>` (both must agree) and the API private
 * key as `secret`.
 *
 * @throws {VenueRejectedError} when the credential is unusable (nothing
 *   can be signed, so nothing is sent).
 */
export function lighterCredential(cred: VenueCredential): LighterSigningKey {
  const m = REF.exec(cred.credentialRef ?? '')
  const accountIndex = Number(m?.[1])
  const apiKeyIndex = Number(m?.[2])
  if (
    !m ||
    !Number.isSafeInteger(accountIndex) ||
    apiKeyIndex > 254 ||
    (cred.accountIndex !== null && Number(cred.accountIndex) !== accountIndex)
  ) {
    throw new VenueRejectedError(
      `no valid Lighter credential: ${cred.credentialRef ?? 'none'}`,
    )
  }
  try {
    parseLighterPrivateKey(cred.secret ?? '')
  } catch (err) {
    throw new VenueRejectedError('no valid Lighter API key for account', {
      cause: err,
    })
  }
  return {
    accountIndex,
    apiKeyIndex,
    privateKey: cred.secret ?? '',
    l1Address: cred.owner.toLowerCase(),
  }
}
