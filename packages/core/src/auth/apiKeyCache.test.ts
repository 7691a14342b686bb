import { describe, expect, it } from 'vitest'
import type { ApiKeyRecord } from '../domain/apiKey.js'
import { createApiKeyCache } from './apiKeyCache.js'

const record = (id: string, revokedAt: string | null = null): ApiKeyRecord => ({
  id,
  owner: '0x00000000000000000000000000000000000000aa',
  env: 'live',
  venues: ['hl'],
  maxSizeUsd: '100',
  label: null,
  secretHash: 'ab'.repeat(32),
  createdAt: '2030-01-01T00:00:00.000Z',
  revokedAt,
})

/** A store whose keys and mark the test sets, counting key reads. */
function fakeStore() {
  const keys = new Map<string, ApiKeyRecord>()
  const f = {
    keys,
    mark: '0' as string | undefined,
    reads: 0,
    /** runs between taking the mark and reading the key */
    onRead: () => {},
    apiKeys: {
      async get(id: string) {
        f.reads += 1
        f.onRead()
        return keys.get(id)
      },
    },
    async revocationMark() {
      return f.mark
    },
  }
  return f
}

describe('createApiKeyCache', () => {
  it('reads a key once while the mark stays', async () => {
    const store = fakeStore()
    store.keys.set('a', record('a'))
    const cache = createApiKeyCache({ store: store as never })
    expect(await cache.get('a')).toEqual(record('a'))
    expect(await cache.get('a')).toEqual(record('a'))
    expect(await cache.get('a')).toEqual(record('a'))
    expect(store.reads).toBe(1)
  })

  it('reads again once the mark moves: a revocation elsewhere is seen at once', async () => {
    const store = fakeStore()
    store.keys.set('a', record('a'))
    const cache = createApiKeyCache({ store: store as never })
    await cache.get('a')
    store.keys.set('a', record('a', '2030-01-02T00:00:00.000Z'))
    store.mark = '1'
    expect((await cache.get('a'))?.revokedAt).toBe('2030-01-02T00:00:00.000Z')
    expect(store.reads).toBe(2)
  })

  it('a revocation between the mark and the read never leaves a live entry', async () => {
    const store = fakeStore()
    store.keys.set('a', record('a'))
    const cache = createApiKeyCache({ store: store as never })
    // the read returns the key as it was, then the revocation commits
    store.onRead = () => {
      store.onRead = () => {}
      queueMicrotask(() => {
        store.keys.set('a', record('a', '2030-01-02T00:00:00.000Z'))
        store.mark = '1'
      })
    }
    expect((await cache.get('a'))?.revokedAt).toBeNull()
    expect((await cache.get('a'))?.revokedAt).toBe('2030-01-02T00:00:00.000Z')
  })

  it('trusts nothing while the store cannot vouch for the mark', async () => {
    const store = fakeStore()
    store.keys.set('a', record('a'))
    const cache = createApiKeyCache({ store: store as never })
    await cache.get('a')
    store.mark = undefined
    await cache.get('a')
    await cache.get('a')
    expect(store.reads).toBe(3)
    // and what was kept before is dropped, even when the mark comes back
    store.mark = '0'
    await cache.get('a')
    expect(store.reads).toBe(4)
  })

  it('concurrent misses of one key under one mark share one read', async () => {
    const store = fakeStore()
    store.keys.set('a', record('a'))
    const cache = createApiKeyCache({ store: store as never })
    const got = await Promise.all([
      cache.get('a'),
      cache.get('a'),
      cache.get('a'),
    ])
    expect(got).toEqual([record('a'), record('a'), record('a')])
    expect(store.reads).toBe(1)
    // calls that took the mark before the read began share it, even if
    // the mark moves during the read
    store.onRead = () => {
      store.onRead = () => {}
      store.mark = '1'
    }
    store.mark = '2'
    const [first, second] = [cache.get('a'), cache.get('a')]
    await Promise.all([first, second])
    expect(store.reads).toBe(2)
    // a call that takes the mark after it moved reads again
    store.mark = '3'
    store.onRead = () => {
      store.mark = '4'
    }
    const p1 = cache.get('a')
    await new Promise((r) => setImmediate(r))
    const p2 = cache.get('a')
    await Promise.all([p1, p2])
    expect(store.reads).toBe(4)
  })

  it('keeps no unknown id, and at most `max` keys, least recently used out first', async () => {
    const store = fakeStore()
    for (const id of ['a', 'b', 'c']) store.keys.set(id, record(id))
    const cache = createApiKeyCache({ store: store as never, max: 2 })
    expect(await cache.get('nope')).toBeUndefined()
    expect(await cache.get('nope')).toBeUndefined()
    expect(store.reads).toBe(2)
    await cache.get('a')
    await cache.get('b')
    await cache.get('a') // a is now the most recent
    await cache.get('c') // b goes
    expect(store.reads).toBe(5)
    await cache.get('a')
    await cache.get('c')
    expect(store.reads).toBe(5)
    await cache.get('b')
    expect(store.reads).toBe(6)
  })
})
