import { createAsterAdapter } from '../aster/adapter/createAsterAdapter.js'
import { bindAsterWallet } from '../sim/asterFake/asterTestKit.js'
import { startAsterFake } from '../sim/asterFake/startAsterFake.js'
import { createSimExchange } from '../sim/simExchange.js'
import { runVenueAdapterContract } from './venueAdapter.contract.js'

runVenueAdapterContract('aster protocol against its fake', async () => {
  const exchange = createSimExchange({
    venue: 'aster',
    seed: 29,
    clock: { now: () => Date.now() },
  })
  const fake = await startAsterFake({ exchange, port: 0 })
  const { cred } = await bindAsterWallet(fake.url, exchange)
  return {
    adapter: createAsterAdapter({ baseUrl: fake.url }),
    cred,
    market: 'ETHUSDT',
    loseAnswers: (on) =>
      exchange.setFaults({ timeoutAfterAcceptRate: on ? 1 : 0 }),
    placedCount: (id) => exchange.stats().byClientOrderId.get(id) ?? 0,
    close: fake.close,
  }
})
