import {
  type Hex,
  recoverTypedDataAddress,
  type TypedDataDefinition,
} from 'viem'
import { ZERO_ADDRESS } from '../../binding/signRequestKinds.js'
import { localAccount } from '../../signing/localAccount.js'

/** EIP-712 chain ids of agent-signed requests (aster.md §1). */
export const ASTER_AGENT_CHAIN_ID = { mainnet: 1666, testnet: 714 } as const

const MESSAGE_TYPES = { Message: [{ name: 'msg', type: 'string' }] } as const

/**
 * The `Message` typed data an agent signs for every TRADE / USER_DATA
 * request: the whole parameter string as one `msg` field.
 * @param msg the exact query or body string, without `signature`
 * @param chainId 1666 (mainnet) or 714 (testnet)
 */
export function asterMessageTypedData(msg: string, chainId: number) {
  return {
    domain: {
      name: 'AsterSignTransaction',
      version: '1',
      chainId,
      verifyingContract: ZERO_ADDRESS,
    },
    types: MESSAGE_TYPES,
    primaryType: 'Message',
    message: { msg },
  } as const satisfies TypedDataDefinition
}

/**
 * Signs a request string with the agent key (Aster's V3 `Message` scheme).
 * @returns the 65-byte signature, 0x-hex
 * @example await signAsterMessage({ privateKey, msg: 'symbol=BTCUSDT&nonce=1', chainId: 1666 })
 */
export function signAsterMessage(p: {
  readonly privateKey: Hex
  readonly msg: string
  readonly chainId: number
}): Promise<Hex> {
  return localAccount(p.privateKey).signTypedData(
    asterMessageTypedData(p.msg, p.chainId),
  )
}

/**
 * The address that signed `msg` (what the venue recovers).
 * @throws when the signature is malformed
 */
export function recoverAsterMessageSigner(p: {
  readonly msg: string
  readonly signature: Hex
  readonly chainId: number
}): Promise<string> {
  return recoverTypedDataAddress({
    ...asterMessageTypedData(p.msg, p.chainId),
    signature: p.signature,
  })
}
