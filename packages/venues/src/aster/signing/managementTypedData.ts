import type { Hex, TypedDataDefinition } from 'viem'
import type { TypedDataSignRequest } from '../../binding/signRequestKinds.js'
import { ZERO_ADDRESS } from '../../binding/signRequestKinds.js'
import type { AsterParam } from './formEncode.js'

/** Posted names Aster types as `uint256` / `bool` (everything else: string). */
const UINT_FIELDS = new Set(['Expired', 'Nonce'])
const BOOL_FIELDS = new Set(['CanSpotTrade', 'CanPerpTrade', 'CanWithdraw'])

/** Posted keys that are not part of the signed struct. */
const UNSIGNED = new Set(['signature', 'signatureChainId'])

/**
 * The main-wallet typed data (ApproveAgent, ApproveBuilder, …) rebuilt from
 * the parameters as posted, in posted order: each name with its first
 * letter upper-cased; `expired`/`nonce` uint256, the `can*` flags bool,
 * everything else string (aster.md §3.3). This is what the venue verifies,
 * so a request built elsewhere must round-trip through it.
 * @param primaryType e.g. `ApproveAgent`
 * @param params the posted parameters; `signature`/`signatureChainId` are skipped
 * @param chainId the posted `signatureChainId`
 * @throws RangeError on a non-integer uint or a non-boolean flag
 */
export function managementTypedData(
  primaryType: string,
  params: readonly AsterParam[],
  chainId: number,
): TypedDataDefinition {
  const fields: { name: string; type: string }[] = []
  const message: Record<string, string | bigint | boolean> = {}
  for (const [key, raw] of params) {
    if (UNSIGNED.has(key) || key.length === 0) continue
    const name = key[0]?.toUpperCase() + key.slice(1)
    if (UINT_FIELDS.has(name)) {
      if (!/^\d+$/.test(raw)) throw new RangeError(`${key} must be an integer`)
      fields.push({ name, type: 'uint256' })
      message[name] = BigInt(raw)
    } else if (BOOL_FIELDS.has(name)) {
      // the Python demo posts True/False, the JS demos true/false
      const v = raw.toLowerCase()
      if (v !== 'true' && v !== 'false') {
        throw new RangeError(`${key} must be true or false`)
      }
      fields.push({ name, type: 'bool' })
      message[name] = v === 'true'
    } else {
      fields.push({ name, type: 'string' })
      message[name] = raw
    }
  }
  // the struct is dynamic, so viem cannot type it statically
  return {
    domain: {
      name: 'AsterSignTransaction',
      version: '1',
      chainId,
      verifyingContract: ZERO_ADDRESS as Hex,
    },
    types: { [primaryType]: fields },
    primaryType,
    message,
  } as unknown as TypedDataDefinition
}

/**
 * The parameters to post for a main-wallet sign request, in the signed
 * field order, each under its name with the first letter lower-cased and
 * `signatureChainId` (= the domain chain id) after `signature`.
 * @param request the issued typed-data request (e.g. `aster:approveAgent`)
 * @param signature the wallet's signature over it
 */
export function managementParams(
  request: TypedDataSignRequest,
  signature: string,
): AsterParam[] {
  const { types, primaryType, message, domain } = request.payload
  const out: AsterParam[] = (types[primaryType] ?? []).map((f) => [
    f.name[0]?.toLowerCase() + f.name.slice(1),
    String(message[f.name]),
  ])
  out.push(['signature', signature])
  out.push(['signatureChainId', String(domain.chainId)])
  return out
}
