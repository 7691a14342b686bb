import type { RequestPriority } from '@dn/core'
import { createLighterAdapter } from '../lighter/adapter/createLighterAdapter.js'
import { createLighterBudget } from '../lighter/adapter/lighterTransport.js'
import type { LighterVenue } from '../lighter/binding/lighterVenue.js'
import { openLighterTestBed } from '../sim/testing/lighterTestBed.js'
import { budgetAsks } from './budgetAsks.js'
import { runVenueAdapterContract } from './venueAdapter.contract.js'

for (const [venue, seed] of [
  ['lighter', 31],
  ['lighter-mainnet', 37],
] as const satisfies readonly (readonly [LighterVenue, number])[]) {
  runVenueAdapterContract(`${venue} protocol against its fake`, async () => {
    const bed = await openLighterTestBed(venue, seed)
    const budgetAsked: RequestPriority[] = []
    return {
      adapter: createLighterAdapter({
        venue,
        baseUrl: bed.fake.url,
        // the account's whole limit: the suite's requests fill more than
        // the half a deployment keeps for itself on the standard tier
        budget: budgetAsks(createLighterBudget({ share: 1 }), budgetAsked),
        // every quote reads the venue: the contract sees how it is sent
        marketMaxAgeMs: 0,
      }),
      budgetAsked,
      cred: bed.cred,
      market: 'ETH',
      loseAnswers: (on) =>
        bed.exchange.setFaults({ timeoutAfterAcceptRate: on ? 1 : 0 }),
      placedCount: (id) =>
        bed.exchange
          .stats()
          .byClientOrderId.get(bed.fake.engineOrderId(bed.accountIndex, id)) ??
        0,
      close: bed.fake.close,
    }
  })
}
