import { parseLighterPrivateKey } from './lighterKeys.js'
import { type Fp5, quinticExtension } from './quinticExtension.js'
import { schnorr } from './schnorr.js'
import {
  type LighterTxAttributes,
  txAttributes,
  txAttributesJson,
} from './txAttributes.js'
import { txHash } from './txHash.js'
import type { LighterSignedTx, LighterTxHeader } from './types.js'

/**
 * The part every API-key-signed Lighter tx shares: validate attributes,
 * hash `[header, fields]` (plus attributes), Schnorr-sign with the key.
 *
 * @module
 */

interface SignL2TxParameters {
  readonly txType: number
  readonly header: LighterTxHeader
  /** type fields in the order of the Go `Hash` method */
  readonly fields: readonly (number | bigint)[]
  /** private key of the API key in `header.apiKeyIndex` (0x + 80 hex) */
  readonly privateKey: string
  readonly attributes?: LighterTxAttributes | undefined
  /** test-only fixed Schnorr nonce; reusing one leaks the key */
  readonly nonceK?: bigint | undefined
}

interface SignedL2Tx {
  readonly hash: Fp5
  /** standard base64 of the 80-byte `s || e` signature (Go's `[]byte`) */
  readonly sig: string
  /** the `L2TxAttributes` JSON value */
  readonly attributes: Record<string, number> | null
}

/**
 * Hashes and signs one L2 tx.
 *
 * @throws {RangeError} on a malformed key or an out-of-range field.
 * @example
 * signL2Tx({ txType: 15, header, fields: [0, 12345], privateKey })
 */
function signL2Tx(params: SignL2TxParameters): SignedL2Tx {
  const sk = parseLighterPrivateKey(params.privateKey)
  const attributes = txAttributes(params.attributes)
  const hash = txHash({
    txType: params.txType,
    header: params.header,
    fields: params.fields,
    attributes,
  })
  const sig = schnorr.toBytes(schnorr.sign(hash, sk, params.nonceK))
  return {
    hash,
    sig: Buffer.from(sig).toString('base64'),
    attributes: txAttributesJson(attributes),
  }
}

/**
 * Signs an API-key tx and serializes it as Go's `json.Marshal` does:
 * `AccountIndex`, `ApiKeyIndex`, the type's own fields (`body`, in struct
 * order), `ExpiredAt`, `Nonce`, `Sig`, `L2TxAttributes`.
 *
 * @throws {RangeError} on a malformed key or an out-of-range field.
 */
export function buildL2Tx(
  params: SignL2TxParameters & {
    readonly body: Readonly<Record<string, number>>
  },
): LighterSignedTx {
  const signed = signL2Tx(params)
  const { header } = params
  const txInfo = {
    AccountIndex: header.accountIndex,
    ApiKeyIndex: header.apiKeyIndex,
    ...params.body,
    ExpiredAt: header.expiredAt,
    Nonce: header.nonce,
    Sig: signed.sig,
    L2TxAttributes: signed.attributes,
  }
  return {
    txType: params.txType,
    txInfo: JSON.stringify(txInfo),
    txHash: quinticExtension.toHex(signed.hash),
    messageToSign: '',
  }
}
