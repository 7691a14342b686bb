import type { Clock } from '../ports/clock.js'
import type { MarketData } from '../ports/marketData.js'
import type { Store } from '../ports/store.js'
import type { VenueOrderLookup } from '../ports/venueOrderLookup.js'

/** What the use cases need, wired once at the composition root. */
export interface CommandDeps {
  readonly store: Store
  readonly clock: Clock
  readonly markets: MarketData
  /** deployment environment; keys of other environments are refused */
  readonly env: string
  /** WORKER_RESIZE; when false the resize route answers 503 */
  readonly workerResize: boolean
  /** checks a venue order is not live before an operator resolve */
  readonly venueOrders?: VenueOrderLookup | undefined
}
