import type { ApiKeyRecord } from '../domain/apiKey.js'
import type { Store } from '../ports/store.js'

/** Where authentication finds a key by id. */
export interface ApiKeyLookup {
  get(id: string): Promise<ApiKeyRecord | undefined>
}

export interface ApiKeyCacheOptions {
  readonly store: Pick<Store, 'apiKeys' | 'revocationMark'>
  /** keys kept, least recently used dropped first @default 10_000 */
  readonly max?: number
}

interface Cached {
  readonly record: ApiKeyRecord
  readonly mark: string
}

/**
 * API keys kept in the process, so an authenticated request costs no key
 * read. An entry is used only while the store's revocation mark is the
 * one it was read under (`Store.revocationMark`), so a revocation by any
 * process takes effect on the next request; while the store cannot vouch
 * for the mark, every key is read again. The mark is taken before the
 * key is read: a revocation committed between the two moves the mark, so
 * the entry is never used. Unknown ids are not kept (a stream of made-up
 * ids would only push real keys out); new keys need no invalidation.
 */
export function createApiKeyCache(options: ApiKeyCacheOptions): ApiKeyLookup {
  const { store } = options
  const max = options.max ?? 10_000
  const entries = new Map<string, Cached>()
  return {
    async get(id) {
      const mark = await store.revocationMark()
      if (mark === undefined) {
        entries.clear()
        return store.apiKeys.get(id)
      }
      const cached = entries.get(id)
      if (cached !== undefined && cached.mark === mark) {
        // re-inserted: the Map's order is the recency order
        entries.delete(id)
        entries.set(id, cached)
        return cached.record
      }
      const record = await store.apiKeys.get(id)
      entries.delete(id)
      if (record === undefined) return undefined
      entries.set(id, { record, mark })
      if (entries.size > max) {
        const oldest = entries.keys().next().value
        if (oldest !== undefined) entries.delete(oldest)
      }
      return record
    },
  }
}
