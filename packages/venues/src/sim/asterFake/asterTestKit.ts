import type { BindingConfig, Clock, VenueCredential } from '@dn/core'
import type { TypedDataDefinition } from 'viem'
import {
  generatePrivateKey,
  type PrivateKeyAccount,
  privateKeyToAccount,
} from 'viem/accounts'
import { createAsterBinder } from '../../aster/binder/createAsterBinder.js'
import type { SimExchange } from '../simExchange.js'

export const NO_FEE_CONFIG: BindingConfig = {
  feeApproval: false,
  builderAddress: `0x${'00'.repeat(20)}`,
  builderName: 'dn',
  lighterTestnet: false,
}

/**
 * Test support: a fresh funded wallet bound through the real binder
 * against a fake (the wallet signs the issued ApproveAgent typed data).
 * @returns the wallet and the agent credential the adapter trades with
 * @internal
 */
export async function bindAsterWallet(
  url: string,
  exchange: SimExchange,
  options: {
    readonly config?: BindingConfig
    readonly testnet?: boolean
    readonly usd?: number
    readonly clock?: Clock
  } = {},
): Promise<{ wallet: PrivateKeyAccount; cred: VenueCredential }> {
  const wallet = privateKeyToAccount(generatePrivateKey())
  const owner = wallet.address.toLowerCase()
  exchange.faucet(owner, options.usd ?? 100_000)
  const binder = createAsterBinder({
    baseUrl: url,
    testnet: options.testnet,
    clock: options.clock,
  })
  const config = options.config ?? NO_FEE_CONFIG
  const prepared = await binder.prepare(owner, { venue: 'aster' }, config)
  const signatures: Record<string, string> = {}
  for (const r of prepared.requests) {
    if (r.method !== 'eth_signTypedData_v4') throw new TypeError(r.method)
    signatures[r.requestId] = await wallet.signTypedData(
      JSON.parse(JSON.stringify(r.payload)) as TypedDataDefinition,
    )
  }
  const done = await binder.complete(owner, {
    target: { venue: 'aster' },
    ...prepared,
    signatures,
  })
  if (done.outcome !== 'bound') {
    throw new Error(`binding failed: ${JSON.stringify(done)}`)
  }
  return {
    wallet,
    cred: {
      owner,
      venue: 'aster',
      accountIndex: null,
      credentialRef: prepared.credentialRef,
      secret: prepared.secret,
    },
  }
}
