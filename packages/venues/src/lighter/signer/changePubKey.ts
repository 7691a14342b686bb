import { l1MessageHex } from './l1MessageHex.js'
import { parseLighterPrivateKey, parseLighterPublicKey } from './lighterKeys.js'
import { quinticExtension } from './quinticExtension.js'
import { requireL1Sig } from './requireL1Sig.js'
import { schnorr } from './schnorr.js'
import {
  type LighterTxAttributes,
  txAttributes,
  txAttributesJson,
} from './txAttributes.js'
import { txHash } from './txHash.js'
import type { LighterSignedTx, LighterTxHeader } from './types.js'

/**
 * ChangePubKey (tx type 8) registers an API key in a slot. Two signatures
 * authorise it: the new key's own Schnorr signature over the L2 hash (so
 * the key proves possession), and the owner's L1 wallet's EIP-191 signature
 * of the `Register Lighter Account` message, which goes into `L1Sig`.
 *
 * @module
 */

/** lighter-go `TxTypeL2ChangePubKey`. */
export const CHANGE_PUB_KEY_TX_TYPE = 8

interface ChangePubKeyL1MessageParameters {
  /** The new public key, `0x` optional, 80 hex digits. */
  readonly publicKey: string
  readonly nonce: number
  readonly accountIndex: number
  readonly apiKeyIndex: number
}

export interface ChangePubKeyParameters extends LighterTxHeader {
  /** The new key's private key: it signs its own registration. */
  readonly privateKey: string
  /** The owner's personal_sign of the L1 message, or '' to fill in later. */
  readonly l1Sig?: string
  readonly attributes?: LighterTxAttributes
}

/**
 * The L1 message the account's owner personal-signs to register a key
 * (lighter-go `TemplateChangePubKey`): real newlines, no trailing newline,
 * no chain id; the key in lowercase hex, numbers as `0x` + 16 hex digits.
 *
 * @throws {RangeError} on a malformed key or a negative number.
 * @example
 * changePubKeyL1Message({ publicKey, nonce: 0, accountIndex: 1, apiKeyIndex: 5 })
 */
export function changePubKeyL1Message(
  params: ChangePubKeyL1MessageParameters,
): string {
  const pk = quinticExtension.toHex(parseLighterPublicKey(params.publicKey))
  return [
    'Register Lighter Account',
    '',
    `pubkey: 0x${pk}`,
    `nonce: ${l1MessageHex(params.nonce)}`,
    `account index: ${l1MessageHex(params.accountIndex)}`,
    `api key index: ${l1MessageHex(params.apiKeyIndex)}`,
    'Only sign this message for a trusted client!',
  ].join('\n')
}

/**
 * Builds and signs a ChangePubKey tx with the new key, returning the
 * `sendTx` fields and the L1 message. Send it only with `L1Sig` set.
 *
 * @param params - header (the slot being registered is `apiKeyIndex`), the
 *   new private key, the owner's L1 signature and optional attributes.
 * @returns `{ txType: 8, txInfo, txHash, messageToSign }`.
 * @throws {RangeError} on a malformed key, signature or out-of-range field.
 * @example
 * const l1 = changePubKeyL1Message({ publicKey, nonce, accountIndex, apiKeyIndex })
 * const tx = changePubKey({ ...header, privateKey, l1Sig: await wallet.signMessage(l1) })
 */
export function changePubKey(params: ChangePubKeyParameters): LighterSignedTx {
  const sk = parseLighterPrivateKey(params.privateKey)
  const l1Sig = requireL1Sig(params.l1Sig ?? '')
  const attributes = txAttributes(params.attributes)
  const pk = schnorr.publicKey(sk)
  const hash = txHash({
    txType: CHANGE_PUB_KEY_TX_TYPE,
    header: params,
    fields: pk,
    attributes,
  })
  const sig = schnorr.toBytes(schnorr.sign(hash, sk))
  const txInfo = {
    AccountIndex: params.accountIndex,
    ApiKeyIndex: params.apiKeyIndex,
    PubKey: Buffer.from(quinticExtension.toBytes(pk)).toString('base64'),
    L1Sig: l1Sig,
    ExpiredAt: params.expiredAt,
    Nonce: params.nonce,
    Sig: Buffer.from(sig).toString('base64'),
    L2TxAttributes: txAttributesJson(attributes),
  }
  return {
    txType: CHANGE_PUB_KEY_TX_TYPE,
    txInfo: JSON.stringify(txInfo),
    txHash: quinticExtension.toHex(hash),
    messageToSign: changePubKeyL1Message({
      publicKey: quinticExtension.toHex(pk),
      nonce: params.nonce,
      accountIndex: params.accountIndex,
      apiKeyIndex: params.apiKeyIndex,
    }),
  }
}
