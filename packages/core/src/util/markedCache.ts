/** A cache whose entries hold while a change mark stands. */
interface MarkedCache<V> {
  /** the row under `key`, from `read` on a miss */
  get(key: string, read: () => Promise<V | undefined>): Promise<V | undefined>
}

interface MarkedCacheOptions {
  /**
   * Where the cached rows stand: a value that changes once any process
   * commits a change to them, or `undefined` while that cannot be vouched
   * for (then nothing kept is trusted). See `Store.revocationMark`.
   */
  readonly mark: () => Promise<string | undefined>
  /** entries kept, least recently used dropped first */
  readonly max: number
}

/**
 * Rows kept in the process, each used only while the store's mark is the
 * one it was read under. The mark is taken before the row is read: a
 * change committed between the two moves the mark, so the entry is never
 * used. Concurrent misses of one key under one mark share one read. Keys
 * with no row are not kept (a stream of made-up keys would only
 * push real ones out); new rows need no invalidation.
 */
export function createMarkedCache<V>(
  options: MarkedCacheOptions,
): MarkedCache<V> {
  const { mark: markOf, max } = options
  const entries = new Map<
    string,
    { readonly value: V; readonly mark: string }
  >()
  const reading = new Map<
    string,
    { readonly value: Promise<V | undefined>; readonly mark: string }
  >()
  return {
    async get(key, read) {
      const mark = await markOf()
      if (mark === undefined) {
        entries.clear()
        return read()
      }
      const cached = entries.get(key)
      if (cached !== undefined && cached.mark === mark) {
        // re-inserted: the Map's order is the recency order
        entries.delete(key)
        entries.set(key, cached)
        return cached.value
      }
      // concurrent misses under one mark share one read
      const flying = reading.get(key)
      if (flying !== undefined && flying.mark === mark) return flying.value
      const pending = read()
      reading.set(key, { mark, value: pending })
      let value: V | undefined
      try {
        value = await pending
      } finally {
        if (reading.get(key)?.value === pending) reading.delete(key)
      }
      entries.delete(key)
      if (value === undefined) return undefined
      entries.set(key, { value, mark })
      if (entries.size > max) {
        const oldest = entries.keys().next().value
        if (oldest !== undefined) entries.delete(oldest)
      }
      return value
    },
  }
}
