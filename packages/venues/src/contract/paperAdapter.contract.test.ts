import { createSimVenues } from '../sim/simVenues.js'
import { runVenueAdapterContract } from './venueAdapter.contract.js'

for (const venue of ['hl', 'aster', 'lighter', 'lighter-mainnet'] as const) {
  runVenueAdapterContract(`paper ${venue}`, async () => {
    const sim = createSimVenues({ seed: 21 })
    const owner = `0x${'ab'.repeat(20)}`
    const { accountIndex } = sim.faucet(venue, owner)
    const exchange = sim.exchanges[venue]
    return {
      adapter: sim.adapters[venue],
      cred: {
        owner,
        venue,
        accountIndex: String(accountIndex),
        credentialRef: null,
        secret: null,
      },
      market: {
        hl: 'ETH',
        aster: 'ETHUSDT',
        lighter: 'ETH',
        'lighter-mainnet': 'SOL',
      }[venue],
      loseAnswers: (on) =>
        exchange.setFaults({ timeoutAfterAcceptRate: on ? 1 : 0 }),
      placedCount: (id) => exchange.stats().byClientOrderId.get(id) ?? 0,
      close: async () => {},
    }
  })
}
