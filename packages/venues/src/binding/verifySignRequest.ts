import type { SignRequest } from '@dn/core'
import {
  type Hex,
  isAddress,
  isAddressEqual,
  recoverMessageAddress,
  recoverTypedDataAddress,
  type TypedData,
} from 'viem'

const SIGNATURE = /^0x[0-9a-fA-F]{130}$/

/**
 * True when `signature` over `request` recovers to `owner`, checked as the
 * venue checks it: typed data exactly as returned (domain, types without
 * `EIP712Domain`, which viem derives from the domain, primaryType, message;
 * message keys outside the type, such as Hyperliquid's `type` and
 * `signatureChainId`, do not enter the hash), a personal_sign message as its
 * UTF-8 bytes. Malformed signatures or owners give false, never a throw.
 */
export async function verifySignRequest(
  request: SignRequest,
  signature: string,
  owner: string,
): Promise<boolean> {
  if (!SIGNATURE.test(signature) || !isAddress(owner, { strict: false })) {
    return false
  }
  try {
    const recovered =
      request.method === 'personal_sign'
        ? await recoverMessageAddress({
            message: request.payload.message,
            signature: signature as Hex,
          })
        : await recoverTypedDataAddress({
            domain: request.payload.domain,
            types: request.payload.types as TypedData,
            primaryType: request.payload.primaryType,
            message: request.payload.message,
            signature: signature as Hex,
          })
    return isAddressEqual(recovered, owner)
  } catch {
    return false
  }
}
