import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { ConflictError } from '../errors/domain.js'
import type { Store } from '../ports/store.js'
import { createSqliteStore } from '../store/sqlite.js'
import { runIdempotent } from './runIdempotent.js'

const params = (key: string, fingerprint = 'f1') => ({
  scope: 'owner:0xabc',
  key,
  method: 'POST',
  path: '/v1/perp/orders',
  fingerprint,
  createdAt: '2026-11-27T00:00:00.000Z',
})

describe('runIdempotent', () => {
  let store: Store
  let reads: number
  let counted: Store

  beforeEach(async () => {
    store = await createSqliteStore({ filename: ':memory:' })
    reads = 0
    // the store as the command sees it, counting reads of stored outcomes
    const idempotency = {
      ...store.idempotency,
      get: (scope: string, key: string) => {
        reads++
        return store.idempotency.get(scope, key)
      },
    }
    counted = { ...store, idempotency }
  })
  afterEach(() => store.close())

  const ok = (body: string) => ({
    prepare: async () => body,
    run: async (_tx: unknown, prepared: string) => ({
      status: 202,
      body: prepared,
    }),
  })
  const failing = {
    prepare: async (): Promise<string> => {
      throw new Error('the market moved')
    },
    run: async () => ({ status: 202, body: 'never' }),
  }

  test('a new key runs with no read of a stored outcome before its transaction', async () => {
    expect(await runIdempotent(counted, params('k1'), ok('"a"'))).toEqual({
      status: 202,
      body: '"a"',
      replayed: false,
    })
    expect(reads).toBe(0)
  })

  test('a retry replays the stored outcome, also when its prepare now fails', async () => {
    await runIdempotent(counted, params('k1'), ok('"a"'))
    const again = { status: 202, body: '"a"', replayed: true }
    expect(await runIdempotent(counted, params('k1'), ok('"b"'))).toEqual(again)
    expect(await runIdempotent(counted, params('k1'), failing)).toEqual(again)
  })

  test('a new key whose prepare fails stores nothing and throws', async () => {
    await expect(runIdempotent(counted, params('k2'), failing)).rejects.toThrow(
      'the market moved',
    )
    expect(await store.idempotency.get('owner:0xabc', 'k2')).toBeUndefined()
    expect(await runIdempotent(counted, params('k2'), ok('"c"'))).toEqual({
      status: 202,
      body: '"c"',
      replayed: false,
    })
  })

  test('a key reused for another request is a conflict, whether or not its prepare fails', async () => {
    await runIdempotent(counted, params('k3'), ok('"a"'))
    for (const command of [ok('"a"'), failing]) {
      const err = await runIdempotent(
        counted,
        params('k3', 'f2'),
        command,
      ).catch((e: unknown) => e)
      expect(err).toBeInstanceOf(ConflictError)
      expect((err as ConflictError).code).toBe('idempotency_key_reused')
    }
  })
})
