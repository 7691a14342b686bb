import { type Address, type Hex, recoverTypedDataAddress } from 'viem'
import { actionHash } from './actionHash.js'
import {
  type HlSignature,
  type HlSignerInput,
  signerAccount,
} from './signerAccount.js'
import { joinSignature, splitSignature } from './splitSignature.js'

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000'

/** The fixed EIP-712 domain of Hyperliquid's L1 ("phantom agent") actions. */
export const HL_L1_DOMAIN = Object.freeze({
  name: 'Exchange',
  version: '1',
  chainId: 1337,
  verifyingContract: ZERO_ADDRESS,
} as const)

const AGENT_TYPES = {
  Agent: [
    { name: 'source', type: 'string' },
    { name: 'connectionId', type: 'bytes32' },
  ],
} as const

/** What identifies one L1 action: action, vault, nonce, expiry, network. */
export interface HlL1ActionInput {
  /** the action object, keys in Hyperliquid's order */
  readonly action: object
  /** the vault or sub-account traded for, else `null` */
  readonly vaultAddress: string | null
  /** ms timestamp; also the request's `nonce` */
  readonly nonce: number
  /** optional ms expiry; also the request's `expiresAfter` */
  readonly expiresAfter?: number | undefined
  /** source `a` (mainnet) or `b` (testnet) */
  readonly isMainnet: boolean
}

export type SignL1ActionParameters = HlL1ActionInput & HlSignerInput

/**
 * The phantom-agent typed data of an L1 action:
 * `Agent { source: 'a' | 'b', connectionId: actionHash(...) }`.
 * @param input action, vault, nonce, expiry and network
 * @returns a viem `TypedDataDefinition`
 * @throws RangeError on a bad nonce, expiry or vault address
 * @example l1TypedData({ action, vaultAddress: null, nonce, isMainnet: true })
 */
export function l1TypedData(input: HlL1ActionInput) {
  const connectionId = actionHash(
    input.action,
    input.vaultAddress,
    input.nonce,
    input.expiresAfter,
  )
  return {
    domain: HL_L1_DOMAIN,
    types: AGENT_TYPES,
    primaryType: 'Agent',
    message: { source: input.isMainnet ? 'a' : 'b', connectionId },
  } as const
}

/**
 * Signs an L1 action (order, cancel, leverage, scheduleCancel, …) with the
 * agent or user key, as `hyperliquid-python-sdk` `sign_l1_action`.
 * @param params the action and its signer (`privateKey` or viem `account`)
 * @returns `{ r, s, v }` for the `/exchange` envelope
 * @throws RangeError on a bad nonce, expiry, vault address or missing signer
 * @example await signL1Action({ privateKey, action, vaultAddress: null, nonce, isMainnet: true })
 */
export async function signL1Action(
  params: SignL1ActionParameters,
): Promise<HlSignature> {
  const account = signerAccount(params)
  const signature = await account.signTypedData(l1TypedData(params))
  return splitSignature(signature)
}

/**
 * Recovers the address that signed an L1 action (for fakes and checks).
 * @param params the action as signed and its `{ r, s, v }`
 * @returns the checksummed signer address
 * @throws RangeError on a bad nonce, expiry or vault address
 * @example await recoverL1Signer({ action, vaultAddress: null, nonce, isMainnet: true, signature })
 */
export async function recoverL1Signer(
  params: HlL1ActionInput & { readonly signature: HlSignature },
): Promise<Address> {
  return recoverTypedDataAddress({
    ...l1TypedData(params),
    signature: joinSignature(params.signature) as Hex,
  })
}
