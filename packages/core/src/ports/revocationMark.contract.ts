import { randomBytes, randomUUID } from 'node:crypto'
import { expect, test } from 'vitest'
import type { ApiKeyRecord } from '../domain/apiKey.js'
import {
  type StoreContractDatabases,
  withOwnDatabase,
} from './store.contract.js'
import type { Store } from './store.js'

const key = (): ApiKeyRecord => ({
  id: randomUUID(),
  owner: `0x${randomBytes(20).toString('hex')}`,
  env: 'live',
  venues: ['hl', 'aster'],
  maxSizeUsd: '1000',
  label: null,
  secretHash: randomBytes(32).toString('hex'),
  createdAt: new Date(Date.UTC(2030, 0, 1)).toISOString(),
  revokedAt: null,
})

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** The mark once the store vouches for it (PostgreSQL listens first). */
async function liveMark(store: Store, ms = 3000): Promise<string> {
  const until = Date.now() + ms
  for (;;) {
    const mark = await store.revocationMark()
    if (mark !== undefined) return mark
    if (Date.now() > until)
      throw new Error(`no revocation mark within ${ms} ms`)
    await sleep(5)
  }
}

/** Resolves once `store`'s mark differs from `from`; fails after `ms`. */
async function markMoves(store: Store, from: string, ms = 3000) {
  const until = Date.now() + ms
  while ((await store.revocationMark()) === from) {
    if (Date.now() > until) throw new Error(`mark still ${from} after ${ms} ms`)
    await sleep(5)
  }
}

/**
 * What a key cache relies on: the revocation mark moves when a revocation
 * commits, in this store at once and in every other store on the database,
 * and not for a revocation rolled back or one that changed nothing. Each
 * test has a database of its own, so no other test's revocation moves it.
 */
export function revocationMarkTests(databases: StoreContractDatabases) {
  test('revocationMark: moves when a revocation commits, at once in this store', () =>
    withOwnDatabase(databases, async (store) => {
      const k = key()
      await store.apiKeys.insert(k)
      const before = await liveMark(store)
      expect(await store.revocationMark()).toBe(before)
      await store.transaction(async (tx) => {
        expect(await tx.apiKeys.revoke(k.id, k.createdAt)).toBe(true)
      })
      const after = await store.revocationMark()
      expect(after).not.toBe(before)
      expect(after).not.toBeUndefined()
      // outside a transaction too
      const k2 = key()
      await store.apiKeys.insert(k2)
      expect(await store.apiKeys.revoke(k2.id, k2.createdAt)).toBe(true)
      expect(await store.revocationMark()).not.toBe(after)
    }))

  test('revocationMark: stays for a rolled-back revocation and a repeated one', () =>
    withOwnDatabase(databases, async (store) => {
      const k = key()
      await store.apiKeys.insert(k)
      await store.apiKeys.revoke(k.id, k.createdAt)
      const other = key()
      await store.apiKeys.insert(other)
      const before = await liveMark(store)
      await expect(
        store.transaction(async (tx) => {
          await tx.apiKeys.revoke(other.id, other.createdAt)
          throw new Error('rolled back')
        }),
      ).rejects.toThrow('rolled back')
      await store.transaction(async () => {
        // a nested transaction is a savepoint of the open one
        await store
          .transaction(async (inner) => {
            await inner.apiKeys.revoke(other.id, other.createdAt)
            throw new Error('savepoint rolled back')
          })
          .catch(() => undefined)
      })
      expect(await store.apiKeys.revoke(k.id, k.createdAt)).toBe(false)
      // a notification that was sent would have arrived by now
      await sleep(100)
      expect(await store.revocationMark()).toBe(before)
      expect((await store.apiKeys.get(other.id))?.revokedAt).toBeNull()
    }))

  if (!databases.shared) return
  test('revocationMark: a revocation in another store moves this one', () =>
    withOwnDatabase(databases, async (store, peer) => {
      const elsewhere = await (peer as () => Promise<Store>)()
      const k = key()
      await store.apiKeys.insert(k)
      const before = await liveMark(store)
      await liveMark(elsewhere)
      expect(await elsewhere.apiKeys.revoke(k.id, k.createdAt)).toBe(true)
      await markMoves(store, before)
      expect((await store.apiKeys.get(k.id))?.revokedAt).toBe(k.createdAt)
    }))
}
