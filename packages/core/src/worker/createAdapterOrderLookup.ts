import type { PerpOrderRecord } from '../domain/perpOrder.js'
import type { VenueId } from '../domain/venue.js'
import type { Secrets } from '../ports/secrets.js'
import type { Repos } from '../ports/store.js'
import type { VenueAdapter } from '../ports/venueAdapter.js'
import type { VenueOrderLookup } from '../ports/venueOrderLookup.js'
import { resolveCredential } from './resolveCredential.js'
import { reconcileVenueOrder } from './venueOrders.js'

/**
 * Answers "is this order live at the venue?" for operator resolves, by
 * client order id through the venue adapter. An order the venue does not
 * know, or knows as final, is not live.
 */
export function createAdapterOrderLookup(o: {
  repos: Pick<Repos, 'bindings'>
  secrets: Secrets
  adapters: Readonly<Record<VenueId, VenueAdapter>>
}): VenueOrderLookup {
  return {
    async isLive(order: PerpOrderRecord): Promise<boolean> {
      const cred = await resolveCredential(
        o.repos,
        o.secrets,
        order.owner,
        order.venue,
      )
      const found = await reconcileVenueOrder(
        { adapter: o.adapters[order.venue], cred, market: order.market },
        order.clientOrderId,
      )
      if (found.type === 'unreachable') throw found.error
      return (
        found.type === 'seen' &&
        (found.order.state === 'open' ||
          found.order.state === 'partially_filled')
      )
    },
  }
}
