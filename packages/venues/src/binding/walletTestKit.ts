import type { SignRequest } from '@dn/core'
import type { Hex, TypedDataDefinition } from 'viem'
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'

/** The fixed test wallet: private key 0x11…11. @internal */
const TEST_WALLET = privateKeyToAccount(`0x${'11'.repeat(32)}`)
/** 0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A */
export const TEST_OWNER = TEST_WALLET.address

/**
 * Test support: signs a request as a wallet would, from the JSON the client
 * received (typed data with eth_signTypedData_v4, a message with
 * personal_sign as UTF-8). @internal
 */
export async function walletSign(
  request: SignRequest,
  wallet: PrivateKeyAccount = TEST_WALLET,
): Promise<Hex> {
  const wire = JSON.parse(JSON.stringify(request)) as SignRequest
  if (wire.method === 'personal_sign') {
    return wallet.signMessage({ message: wire.payload.message })
  }
  return wallet.signTypedData(wire.payload as unknown as TypedDataDefinition)
}

/** A copy of a typed-data request with one message field replaced. @internal */
export function withMessageField(
  request: SignRequest,
  name: string,
  value: unknown,
): SignRequest {
  if (request.method !== 'eth_signTypedData_v4') {
    throw new TypeError('not a typed-data request')
  }
  return {
    ...request,
    payload: {
      ...request.payload,
      message: { ...request.payload.message, [name]: value },
    },
  }
}

/** The field names of a typed-data request's primary type, in order. @internal */
export function fieldOrder(request: SignRequest): string[] {
  if (request.method !== 'eth_signTypedData_v4') return []
  return (request.payload.types[request.payload.primaryType] ?? []).map(
    (f) => `${f.name}:${f.type}`,
  )
}
