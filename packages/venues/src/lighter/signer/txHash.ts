import { goldilocks } from './goldilocks.js'
import { poseidon2 } from './poseidon2.js'
import type { Fp5 } from './quinticExtension.js'
import { attributeNilValue, type TxAttributeMap } from './txAttributes.js'
import { txInteger } from './txInteger.js'
import type { LighterTxHeader } from './types.js'

/**
 * The message a Lighter L2 tx signature covers (lighter-go
 * `types/txtypes/<tx>.go Hash`): the Poseidon2 `HashToQuinticExtension` of
 * `[chainId, txType, nonce, expiredAt, accountIndex, apiKeyIndex, ...type
 * fields]`, then, when any attribute is set, hashed once more together with
 * the attributes' own hash.
 *
 * @module
 */

interface TxHashParameters {
  readonly txType: number
  readonly header: LighterTxHeader
  /** The type-specific fields, in the order of the Go `Hash` method. */
  readonly fields: readonly (number | bigint)[]
  readonly attributes?: TxAttributeMap | null
}

const MAX_TIMESTAMP = 2 ** 48 - 1
const MAX_ACCOUNT_INDEX = 2 ** 48 - 2
const NB_ATTRIBUTES_PER_TX = 4

/** Header fields as field elements, after range checks. */
function headerElements(txType: number, h: LighterTxHeader): bigint[] {
  return [
    txInteger('chainId', h.chainId, 0, 2 ** 32 - 1),
    txInteger('txType', txType, 0, 255),
    txInteger('nonce', h.nonce, 0, Number.MAX_SAFE_INTEGER),
    txInteger('expiredAt', h.expiredAt, 0, MAX_TIMESTAMP),
    txInteger('accountIndex', h.accountIndex, 0, MAX_ACCOUNT_INDEX),
    txInteger('apiKeyIndex', h.apiKeyIndex, 0, 254),
  ].map((v) => BigInt(v))
}

/**
 * `L2TxAttributes.AggregateTxHash`: non-nil attributes sorted by type,
 * padded with `(0, 0)` pairs to four, hashed, and hashed again after the
 * tx hash. With no non-nil attribute the tx hash is returned unchanged.
 */
function aggregate(hash: Fp5, attributes: TxAttributeMap | null): Fp5 {
  if (attributes === null) return hash
  const set = [...attributes]
    .filter(([type, value]) => value !== attributeNilValue(type))
    .sort(([a], [b]) => a - b)
  if (set.length === 0) return hash
  const pairs: bigint[] = []
  for (let i = 0; i < NB_ATTRIBUTES_PER_TX; i++) {
    const [type = 0, value = 0] = set[i] ?? []
    pairs.push(BigInt(type), goldilocks.fromInteger(value))
  }
  const attributesHash = poseidon2.hashToQuinticExtension(pairs)
  return poseidon2.hashToQuinticExtension([...hash, ...attributesHash])
}

/**
 * Computes the hash a Lighter L2 transaction's Schnorr signature covers.
 *
 * @param params - tx type, header, type fields and optional attributes.
 * @returns the hash as an Fp5 element (`quinticExtension.toHex` gives the
 *   `tx_hash` Lighter reports).
 * @throws {RangeError} when a header field is out of range.
 * @example
 * const h = txHash({ txType: 15, header, fields: [marketIndex, index] })
 */
export function txHash(params: TxHashParameters): Fp5 {
  const elements = [
    ...headerElements(params.txType, params.header),
    // Go casts each field with GoldilocksField(x): int64 -> u64 -> mod p
    ...params.fields.map((v) => goldilocks.fromInteger(v)),
  ]
  return aggregate(
    poseidon2.hashToQuinticExtension(elements),
    params.attributes ?? null,
  )
}
