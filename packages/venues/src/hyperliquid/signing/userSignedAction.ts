import {
  type Address,
  recoverTypedDataAddress,
  type TypedData,
  type TypedDataDomain,
} from 'viem'
import {
  type HlSignature,
  type HlSignerInput,
  signerAccount,
} from './signerAccount.js'
import { joinSignature, splitSignature } from './splitSignature.js'

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000'

/** EIP-712 struct fields by type name (viem `TypedData`, loosely typed). */
export type HlTypedDataTypes = Readonly<
  Record<string, readonly { readonly name: string; readonly type: string }[]>
>

/** A user-signed action: carries its wallet chain and its environment. */
export interface HlUserSignedActionObject {
  /** hex chain id the wallet signs with, e.g. `'0xa4b1'` */
  readonly signatureChainId: string
  /** `'Mainnet'` or `'Testnet'`; must agree with `isMainnet` */
  readonly hyperliquidChain: string
  readonly [key: string]: unknown
}

/** The action and how it is typed, without the signer. */
export interface HlUserSignedInput {
  /** the posted action; keys outside the type are not hashed */
  readonly action: HlUserSignedActionObject
  /** EIP-712 types, `{ [primaryType]: [fields in Hyperliquid's order] }` */
  readonly types: HlTypedDataTypes
  /** `HyperliquidTransaction:<Name>` */
  readonly primaryType: `HyperliquidTransaction:${string}`
  readonly isMainnet: boolean
}

export type SignUserSignedActionParameters = HlUserSignedInput & HlSignerInput

/**
 * The typed data of a user-signed action: domain
 * `HyperliquidSignTransaction` v1 with `chainId = int(signatureChainId)`,
 * the action itself as the message (python `user_signed_payload`).
 * @param input action, types, primary type, network
 * @returns a viem `TypedDataDefinition`
 * @throws RangeError on a bad `signatureChainId` or a `hyperliquidChain`
 * that does not match `isMainnet`
 * @example userSignedTypedData({ action, types, primaryType, isMainnet: true })
 */
export function userSignedTypedData(input: HlUserSignedInput) {
  const { action } = input
  const chain = input.isMainnet ? 'Mainnet' : 'Testnet'
  if (action.hyperliquidChain !== chain) {
    throw new RangeError(
      `hyperliquidChain must be ${chain}: ${String(action.hyperliquidChain)}`,
    )
  }
  if (!/^0x[0-9a-fA-F]+$/.test(action.signatureChainId)) {
    throw new RangeError(
      `signatureChainId must be a hex chain id: ${action.signatureChainId}`,
    )
  }
  const chainId = Number.parseInt(action.signatureChainId.slice(2), 16)
  if (!Number.isSafeInteger(chainId) || chainId < 1) {
    throw new RangeError(`signatureChainId out of range: ${chainId}`)
  }
  if (!input.types[input.primaryType]) {
    throw new RangeError(`types lacks the primary type ${input.primaryType}`)
  }
  const domain: TypedDataDomain = {
    name: 'HyperliquidSignTransaction',
    version: '1',
    chainId,
    verifyingContract: ZERO_ADDRESS,
  }
  return {
    domain,
    types: input.types as TypedData,
    primaryType: input.primaryType,
    message: action as Record<string, unknown>,
  }
}

/**
 * Signs a `HyperliquidTransaction:*` action (approveAgent,
 * approveBuilderFee, usdSend, …) with the user (master) key.
 * @param params the action, its types and its signer
 * @returns `{ r, s, v }` for the `/exchange` envelope
 * @throws RangeError as {@link userSignedTypedData}, or on a missing signer
 * @example await signUserSignedAction({ privateKey, action, types, primaryType, isMainnet: true })
 */
export async function signUserSignedAction(
  params: SignUserSignedActionParameters,
): Promise<HlSignature> {
  const typedData = userSignedTypedData(params)
  const account = signerAccount(params)
  return splitSignature(await account.signTypedData(typedData))
}

/**
 * Recovers the address that signed a user-signed action.
 * @param params the action as signed and its `{ r, s, v }`
 * @returns the checksummed signer address
 * @throws RangeError as {@link userSignedTypedData}
 * @example await recoverUserSignedSigner({ action, types, primaryType, isMainnet, signature })
 */
export async function recoverUserSignedSigner(
  params: HlUserSignedInput & { readonly signature: HlSignature },
): Promise<Address> {
  return recoverTypedDataAddress({
    ...userSignedTypedData(params),
    signature: joinSignature(params.signature),
  })
}
