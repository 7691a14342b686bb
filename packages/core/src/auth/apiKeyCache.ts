import type { ApiKeyRecord } from '../domain/apiKey.js'
import type { Store } from '../ports/store.js'
import { createMarkedCache } from '../util/markedCache.js'

/** Where authentication finds a key by id. */
export interface ApiKeyLookup {
  get(id: string): Promise<ApiKeyRecord | undefined>
}

export interface ApiKeyCacheOptions {
  readonly store: Pick<Store, 'apiKeys' | 'revocationMark'>
  /** keys kept, least recently used dropped first @default 10_000 */
  readonly max?: number
}

/**
 * API keys kept in the process, so an authenticated request costs no key
 * read. An entry is used only while the store's revocation mark is the
 * one it was read under (`Store.revocationMark`), so a revocation by any
 * process takes effect on the next request; while the store cannot vouch
 * for the mark, every key is read again.
 */
export function createApiKeyCache(options: ApiKeyCacheOptions): ApiKeyLookup {
  const { store } = options
  const cache = createMarkedCache<ApiKeyRecord>({
    mark: () => store.revocationMark(),
    max: options.max ?? 10_000,
  })
  return { get: (id) => cache.get(id, () => store.apiKeys.get(id)) }
}
