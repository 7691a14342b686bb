import { startFaucetServer } from '../sim/faucetServer.js'
import { createSimRpcAdapter } from '../sim/simRpcAdapter.js'
import { createSimVenues } from '../sim/simVenues.js'
import { runVenueAdapterContract } from './venueAdapter.contract.js'

runVenueAdapterContract('simulated RPC aster', async () => {
  const sim = createSimVenues({ seed: 22 })
  const server = await startFaucetServer({ venues: sim, port: 0 })
  const owner = `0x${'cd'.repeat(20)}`
  sim.faucet('aster', owner)
  return {
    adapter: createSimRpcAdapter({ baseUrl: server.url, venue: 'aster' }),
    cred: {
      owner,
      venue: 'aster',
      accountIndex: null,
      credentialRef: null,
      secret: null,
    },
    market: 'BTCUSDT',
    loseAnswers: (on) =>
      sim.exchanges.aster.setFaults({ timeoutAfterAcceptRate: on ? 1 : 0 }),
    placedCount: (id) =>
      sim.exchanges.aster.stats().byClientOrderId.get(id) ?? 0,
    close: server.close,
  }
})
