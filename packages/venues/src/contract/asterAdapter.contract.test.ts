import type { RequestPriority } from '@dn/core'
import { createAsterBudget } from '../aster/adapter/asterTransport.js'
import { createAsterAdapter } from '../aster/adapter/createAsterAdapter.js'
import { bindAsterWallet } from '../sim/asterFake/asterTestKit.js'
import { startAsterFake } from '../sim/asterFake/startAsterFake.js'
import { createSimExchange } from '../sim/simExchange.js'
import { budgetAsks } from './budgetAsks.js'
import { runVenueAdapterContract } from './venueAdapter.contract.js'

runVenueAdapterContract('aster protocol against its fake', async () => {
  const exchange = createSimExchange({
    venue: 'aster',
    seed: 29,
    clock: { now: () => Date.now() },
  })
  const fake = await startAsterFake({ exchange, port: 0 })
  const { cred } = await bindAsterWallet(fake.url, exchange)
  const budgetAsked: RequestPriority[] = []
  return {
    adapter: createAsterAdapter({
      baseUrl: fake.url,
      budget: budgetAsks(createAsterBudget({}), budgetAsked),
      // every quote reads the venue: the contract sees how it is sent
      marketMaxAgeMs: 0,
    }),
    budgetAsked,
    cred,
    market: 'ETHUSDT',
    loseAnswers: (on) =>
      exchange.setFaults({ timeoutAfterAcceptRate: on ? 1 : 0 }),
    placedCount: (id) => exchange.stats().byClientOrderId.get(id) ?? 0,
    close: fake.close,
  }
})
