import { createLighterAdapter } from '../lighter/adapter/createLighterAdapter.js'
import type { LighterVenue } from '../lighter/binding/lighterVenue.js'
import { openLighterTestBed } from '../sim/testing/lighterTestBed.js'
import { runVenueAdapterContract } from './venueAdapter.contract.js'

for (const [venue, seed] of [
  ['lighter', 31],
  ['lighter-mainnet', 37],
] as const satisfies readonly (readonly [LighterVenue, number])[]) {
  runVenueAdapterContract(`${venue} protocol against its fake`, async () => {
    const bed = await openLighterTestBed(venue, seed)
    return {
      adapter: createLighterAdapter({ venue, baseUrl: bed.fake.url }),
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
