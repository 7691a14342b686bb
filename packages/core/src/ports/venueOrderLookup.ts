import type { PerpOrderRecord } from '../domain/perpOrder.js'

/**
 * Asks the venue whether an order (found by its client order id) is still
 * live. Throws when the venue cannot be asked.
 */
export interface VenueOrderLookup {
  isLive(order: PerpOrderRecord): Promise<boolean>
}
