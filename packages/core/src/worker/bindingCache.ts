import type { VenueId } from '../domain/venue.js'
import type { VenueBindingRecord } from '../domain/venueBinding.js'
import type { Store } from '../ports/store.js'
import { createMarkedCache } from '../util/markedCache.js'

/** Where a worker step finds an owner's binding for a venue. */
export interface VenueBindingLookup {
  get(owner: string, venue: VenueId): Promise<VenueBindingRecord | undefined>
}

export interface BindingCacheOptions {
  readonly store: Pick<Store, 'bindings' | 'bindingMark'>
  /** bindings kept, least recently used dropped first @default 10_000 */
  readonly max?: number
}

/**
 * Venue bindings kept in the worker, so an order's step costs no binding
 * read. An entry is used only while the store's binding mark is the one it
 * was read under (`Store.bindingMark`): a rebind, or a binding marked
 * unusable, by any process is seen on the next use.
 */
export function createBindingCache(
  options: BindingCacheOptions,
): VenueBindingLookup {
  const { store } = options
  const cache = createMarkedCache<VenueBindingRecord>({
    mark: () => store.bindingMark(),
    max: options.max ?? 10_000,
  })
  return {
    get: (owner, venue) =>
      cache.get(`${owner}|${venue}`, () => store.bindings.get(owner, venue)),
  }
}
