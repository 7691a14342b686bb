import {
  encodeAbiParameters,
  type Hex,
  keccak256,
  recoverMessageAddress,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'

interface LegacyV3Input {
  /** business parameters, each a string */
  readonly params: Readonly<Record<string, string>>
  readonly user: string
  readonly signer: string
  /** microsecond nonce */
  readonly nonce: bigint | number
}

/**
 * The pre-2026-01-22 V3 hash (aster.md §3.5): sorted-key JSON of the string
 * parameters, ABI-encoded with user, signer and nonce, then keccak256.
 * Kept for the published vector; the current scheme is `Message`.
 */
export function legacyV3Hash(input: LegacyV3Input): Hex {
  const sorted = Object.fromEntries(
    Object.keys(input.params)
      .sort()
      .map((k) => [k, input.params[k]]),
  )
  const encoded = encodeAbiParameters(
    [
      { type: 'string' },
      { type: 'address' },
      { type: 'address' },
      { type: 'uint256' },
    ],
    [
      JSON.stringify(sorted),
      input.user as Hex,
      input.signer as Hex,
      BigInt(input.nonce),
    ],
  )
  return keccak256(encoded)
}

/** EIP-191 `personal_sign` of the 32-byte legacy hash by the signer key. */
export function signLegacyV3(
  input: LegacyV3Input,
  privateKey: Hex,
): Promise<Hex> {
  return privateKeyToAccount(privateKey).signMessage({
    message: { raw: legacyV3Hash(input) },
  })
}

/** The address that produced a legacy V3 signature. */
export function recoverLegacyV3Signer(
  input: LegacyV3Input,
  signature: Hex,
): Promise<string> {
  return recoverMessageAddress({
    message: { raw: legacyV3Hash(input) },
    signature,
  })
}
