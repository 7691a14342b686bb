import type { BindingConfig, RequestPriority } from '@dn/core'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { createHyperliquidAdapter } from '../hyperliquid/adapter/createHyperliquidAdapter.js'
import { createHlBudget } from '../hyperliquid/adapter/hlTransport.js'
import { createHyperliquidBinder } from '../hyperliquid/binder/createHyperliquidBinder.js'
import { startHyperliquidFake } from '../sim/hyperliquidFake/startHyperliquidFake.js'
import { createSimExchange } from '../sim/simExchange.js'
import { budgetAsks } from './budgetAsks.js'
import { runVenueAdapterContract } from './venueAdapter.contract.js'

const config: BindingConfig = {
  feeApproval: false,
  builderAddress: `0x${'00'.repeat(20)}`,
  builderName: 'dn',
  lighterTestnet: false,
}

runVenueAdapterContract('hyperliquid protocol against its fake', async () => {
  const exchange = createSimExchange({
    venue: 'hl',
    seed: 23,
    clock: { now: () => Date.now() },
  })
  const fake = await startHyperliquidFake({ exchange, port: 0 })
  const wallet = privateKeyToAccount(generatePrivateKey())
  const owner = wallet.address.toLowerCase()
  exchange.faucet(owner, 100_000)
  const binder = createHyperliquidBinder({ baseUrl: fake.url, isMainnet: true })
  const prepared = await binder.prepare(owner, { venue: 'hl' }, config)
  const signatures: Record<string, string> = {}
  for (const r of prepared.requests) {
    if (r.method === 'eth_signTypedData_v4') {
      signatures[r.requestId] = await wallet.signTypedData(
        r.payload as Parameters<typeof wallet.signTypedData>[0],
      )
    }
  }
  await binder.complete(owner, {
    target: { venue: 'hl' },
    ...prepared,
    signatures,
  })
  const budgetAsked: RequestPriority[] = []
  return {
    adapter: createHyperliquidAdapter({
      baseUrl: fake.url,
      isMainnet: true,
      budget: budgetAsks(createHlBudget({}), budgetAsked),
      // every quote reads the venue: the contract sees how it is sent
      marketMaxAgeMs: 0,
    }),
    budgetAsked,
    cred: {
      owner,
      venue: 'hl',
      accountIndex: null,
      credentialRef: prepared.credentialRef,
      secret: prepared.secret,
    },
    market: 'ETH',
    loseAnswers: (on) =>
      exchange.setFaults({ timeoutAfterAcceptRate: on ? 1 : 0 }),
    placedCount: (id) => exchange.stats().byClientOrderId.get(id) ?? 0,
    close: fake.close,
  }
})
