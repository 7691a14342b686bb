import { randomBytes, randomUUID } from 'node:crypto'
import { expect, test } from 'vitest'
import type { ApiKeyRecord } from '../domain/apiKey.js'
import type { VenueBindingRecord } from '../domain/venueBinding.js'
import {
  type StoreContractDatabases,
  withOwnDatabase,
} from './store.contract.js'
import type { Repos, Store } from './store.js'

const AT = new Date(Date.UTC(2030, 0, 1)).toISOString()
const wallet = () => `0x${randomBytes(20).toString('hex')}`

/**
 * One kind of change a store's caches watch: a row the test inserts, and
 * the write that changes it (true) or finds nothing to change (false).
 */
interface WatchedChange {
  readonly name: 'revocationMark' | 'bindingMark'
  mark(store: Store): Promise<string | undefined>
  insert(store: Store): Promise<string>
  change(repos: Repos, id: string): Promise<boolean>
  /** whether the change took (read back) */
  changed(store: Store, id: string): Promise<boolean>
}

const revocations: WatchedChange = {
  name: 'revocationMark',
  mark: (store) => store.revocationMark(),
  async insert(store) {
    const k: ApiKeyRecord = {
      id: randomUUID(),
      owner: wallet(),
      env: 'live',
      venues: ['hl', 'aster'],
      maxSizeUsd: '1000',
      label: null,
      secretHash: randomBytes(32).toString('hex'),
      createdAt: AT,
      revokedAt: null,
    }
    await store.apiKeys.insert(k)
    return k.id
  },
  change: (repos, id) => repos.apiKeys.revoke(id, AT),
  changed: async (store, id) =>
    (await store.apiKeys.get(id))?.revokedAt !== null,
}

const CIPHERTEXT = 'v1.sealed'
const bindings: WatchedChange = {
  name: 'bindingMark',
  mark: (store) => store.bindingMark(),
  async insert(store) {
    const b: VenueBindingRecord = {
      id: randomUUID(),
      owner: wallet(),
      venue: 'hl',
      status: 'bound',
      accountIndex: null,
      credentialRef: wallet(),
      credentialCiphertext: CIPHERTEXT,
      unusableCode: null,
      createdAt: AT,
      updatedAt: AT,
    }
    await store.bindings.upsert(b)
    return b.owner
  },
  change: (repos, owner) =>
    repos.bindings.markUnusable({
      owner,
      venue: 'hl',
      credentialCiphertext: CIPHERTEXT,
      code: 'credential_unreadable',
      updatedAt: AT,
    }),
  changed: async (store, owner) =>
    (await store.bindings.get(owner, 'hl'))?.status === 'unusable',
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** The mark once the store vouches for it (PostgreSQL listens first). */
async function liveMark(
  watched: WatchedChange,
  store: Store,
  ms = 3000,
): Promise<string> {
  const until = Date.now() + ms
  for (;;) {
    const mark = await watched.mark(store)
    if (mark !== undefined) return mark
    if (Date.now() > until)
      throw new Error(`no ${watched.name} within ${ms} ms`)
    await sleep(5)
  }
}

/** Resolves once `store`'s mark differs from `from`; fails after `ms`. */
async function markMoves(
  watched: WatchedChange,
  store: Store,
  from: string,
  ms = 3000,
) {
  const until = Date.now() + ms
  while ((await watched.mark(store)) === from) {
    if (Date.now() > until) throw new Error(`mark still ${from} after ${ms} ms`)
    await sleep(5)
  }
}

/**
 * What a cache relies on: a mark moves when its change commits, in this
 * store at once and in every other store on the database, and not for a
 * change rolled back or one that changed nothing. Each test has a database
 * of its own, so no other test's change moves it.
 */
export function changeMarkTests(databases: StoreContractDatabases) {
  for (const w of [revocations, bindings]) {
    test(`${w.name}: moves when a change commits, at once in this store`, () =>
      withOwnDatabase(databases, async (store) => {
        const id = await w.insert(store)
        const before = await liveMark(w, store)
        expect(await w.mark(store)).toBe(before)
        await store.transaction(async (tx) => {
          expect(await w.change(tx, id)).toBe(true)
        })
        const after = await w.mark(store)
        expect(after).not.toBe(before)
        expect(after).not.toBeUndefined()
        // outside a transaction too
        const id2 = await w.insert(store)
        const inserted = await w.mark(store)
        expect(await w.change(store, id2)).toBe(true)
        expect(await w.mark(store)).not.toBe(inserted)
      }))

    test(`${w.name}: stays for a rolled-back change and a repeated one`, () =>
      withOwnDatabase(databases, async (store) => {
        const id = await w.insert(store)
        await w.change(store, id)
        const other = await w.insert(store)
        const before = await liveMark(w, store)
        await expect(
          store.transaction(async (tx) => {
            await w.change(tx, other)
            throw new Error('rolled back')
          }),
        ).rejects.toThrow('rolled back')
        await store.transaction(async () => {
          // a nested transaction is a savepoint of the open one
          await store
            .transaction(async (inner) => {
              await w.change(inner, other)
              throw new Error('savepoint rolled back')
            })
            .catch(() => undefined)
        })
        expect(await w.change(store, id)).toBe(false)
        // a notification that was sent would have arrived by now
        await sleep(100)
        expect(await w.mark(store)).toBe(before)
        expect(await w.changed(store, other)).toBe(false)
      }))

    if (!databases.shared) continue
    test(`${w.name}: a change in another store moves this one`, () =>
      withOwnDatabase(databases, async (store, peer) => {
        const elsewhere = await (peer as () => Promise<Store>)()
        const id = await w.insert(store)
        const before = await liveMark(w, store)
        await liveMark(w, elsewhere)
        expect(await w.change(elsewhere, id)).toBe(true)
        await markMoves(w, store, before)
        expect(await w.changed(store, id)).toBe(true)
      }))
  }

  test('bindingMark: a binding inserted or rebound moves it; a revocation does not, nor a binding a revocation', () =>
    withOwnDatabase(databases, async (store) => {
      const before = await liveMark(bindings, store)
      const owner = await bindings.insert(store)
      const inserted = await store.bindingMark()
      expect(inserted).not.toBe(before)
      const b = await store.bindings.get(owner, 'hl')
      await store.bindings.upsert({
        ...(b as VenueBindingRecord),
        credentialRef: wallet(),
      })
      expect(await store.bindingMark()).not.toBe(inserted)
      const marks = await store.bindingMark()
      const key = await revocations.insert(store)
      await revocations.change(store, key)
      const keys = await liveMark(revocations, store)
      await bindings.change(store, owner)
      // a notification that was sent would have arrived by now
      await sleep(100)
      expect(await store.bindingMark()).not.toBe(marks)
      expect(await store.revocationMark()).toBe(keys)
      const rebound = await store.bindingMark()
      await revocations.change(store, await revocations.insert(store))
      await sleep(100)
      expect(await store.bindingMark()).toBe(rebound)
    }))
}
