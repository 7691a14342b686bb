import { randomBytes } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import type { WorkerRecord } from '../domain/worker.js'
import type { Store } from '../ports/store.js'
import { LIVE_WORKER_MS, ownerShard } from './ownerShard.js'

const NOW = Date.UTC(2030, 5, 1, 12)
const iso = (ms: number) => new Date(ms).toISOString()

function worker(id: string, over: Partial<WorkerRecord> = {}): WorkerRecord {
  return {
    id,
    startedAt: iso(NOW - 3_600_000),
    heartbeatAt: iso(NOW - 1_000),
    fencedAt: null,
    ...over,
  }
}

/** A store whose only part in use is `workers.list()`. */
function storeOf(records: readonly WorkerRecord[]): Store {
  return {
    workers: { list: async () => [...records] },
  } as unknown as Store
}

/** The owner filter of `workerId`, as it sees `records`. */
const shardOf = (
  workerId: string,
  records: readonly WorkerRecord[],
  now = NOW,
) => ownerShard({ store: storeOf(records), workerId }, now)

/** Random lowercase owner addresses, each with uppercase hex letters too. */
function owners(n: number): string[] {
  const out: string[] = []
  while (out.length < n) {
    const a = `0x${randomBytes(20).toString('hex')}`
    if (/[a-f]/.test(a.slice(2))) out.push(a)
  }
  return out
}

/** For each owner, the workers whose shard claims it. */
async function claims(
  ids: readonly string[],
  records: readonly WorkerRecord[],
  addresses: readonly string[],
): Promise<Map<string, string[]>> {
  const shards = await Promise.all(
    ids.map(async (id) => [id, await shardOf(id, records)] as const),
  )
  return new Map(
    addresses.map((o) => [o, shards.filter(([, f]) => f(o)).map(([id]) => id)]),
  )
}

const OWNERS = owners(500)

describe('ownerShard', () => {
  test('a worker alone watches every owner', async () => {
    for (const records of [[], [worker('w-me')]]) {
      const mine = await shardOf('w-me', records)
      expect(OWNERS.every(mine)).toBe(true)
    }
  })

  test('a worker whose others are all stale or fenced watches every owner', async () => {
    const mine = await shardOf('w-me', [
      worker('w-me'),
      worker('w-stale', { heartbeatAt: iso(NOW - LIVE_WORKER_MS - 1) }),
      worker('w-long-gone', { heartbeatAt: iso(NOW - 86_400_000) }),
      worker('w-fenced', { fencedAt: iso(NOW - 5_000) }),
    ])
    expect(OWNERS.every(mine)).toBe(true)
  })

  test('three live workers claim every owner exactly once, roughly evenly', async () => {
    const ids = ['w-a', 'w-b', 'w-c']
    const records = ids.map((id) => worker(id))
    const byOwner = await claims(ids, records, OWNERS)
    const counts = new Map(ids.map((id) => [id, 0]))
    for (const [owner, who] of byOwner) {
      expect(who, owner).toHaveLength(1)
      const id = who[0] as string
      counts.set(id, (counts.get(id) ?? 0) + 1)
    }
    for (const id of ids) {
      expect(counts.get(id)).toBeGreaterThanOrEqual(OWNERS.length * 0.2)
    }
  })

  test('the owner is matched without regard to case', async () => {
    const ids = ['w-a', 'w-b', 'w-c']
    const records = ids.map((id) => worker(id))
    for (const id of ids) {
      const mine = await shardOf(id, records)
      for (const owner of OWNERS) {
        const upper = `0x${owner.slice(2).toUpperCase()}`
        expect(mine(upper), owner).toBe(mine(owner))
        expect(mine(owner.toUpperCase()), owner).toBe(mine(owner))
      }
    }
  })

  test('a worker whose heartbeat is older than LIVE_WORKER_MS is not counted', async () => {
    const stale = [
      worker('w-a'),
      worker('w-b', { heartbeatAt: iso(NOW - LIVE_WORKER_MS - 1) }),
    ]
    expect(OWNERS.every(await shardOf('w-a', stale))).toBe(true)

    // one millisecond younger, and it shares the owners
    const live = [
      worker('w-a'),
      worker('w-b', { heartbeatAt: iso(NOW - LIVE_WORKER_MS) }),
    ]
    const mine = await shardOf('w-a', live)
    const count = OWNERS.filter(mine).length
    expect(count).toBeGreaterThan(0)
    expect(count).toBeLessThan(OWNERS.length)
  })

  test('a fenced worker is not counted, however fresh its heartbeat', async () => {
    const ids = ['w-a', 'w-b', 'w-c']
    const records = [
      worker('w-a'),
      worker('w-b', { heartbeatAt: iso(NOW), fencedAt: iso(NOW - 1) }),
      worker('w-c'),
    ]
    const byOwner = await claims(ids, records, OWNERS)
    for (const [owner, who] of byOwner) {
      // w-b's own view still counts itself; the two live workers split all
      const live = who.filter((id) => id !== 'w-b')
      expect(live, owner).toHaveLength(1)
    }
    const counts = ['w-a', 'w-c'].map(
      (id) => [...byOwner.values()].filter((who) => who.includes(id)).length,
    )
    for (const c of counts)
      expect(c).toBeGreaterThanOrEqual(OWNERS.length * 0.3)
  })

  test('the liveness of others is judged at the given now', async () => {
    const records = [
      worker('w-a'),
      worker('w-b', { heartbeatAt: iso(NOW - 1_000) }),
    ]
    const shared = await shardOf('w-a', records, NOW)
    expect(OWNERS.every(shared)).toBe(false)
    const later = await shardOf('w-a', records, NOW + LIVE_WORKER_MS)
    expect(OWNERS.every(later)).toBe(true)
  })

  test('owners are split by the 32-bit FNV-1a hash of the lowercase owner, the same in every process', async () => {
    // published FNV-1a test vectors: "a" → 0xe40c292c, "foobar" → 0xbf9cf968
    for (const [owner, hash] of [
      ['a', 0xe40c292c],
      ['foobar', 0xbf9cf968],
      ['FooBar', 0xbf9cf968],
    ] as const) {
      for (let n = 2; n <= 7; n++) {
        const ids = Array.from({ length: n }, (_, i) => `w-${i}`)
        const records = ids.map((id) => worker(id))
        const who = (await claims(ids, records, [owner])).get(owner)
        expect(who, `${owner} among ${n}`).toEqual([`w-${hash % n}`])
      }
    }
  })

  test('the order the store lists workers in does not change who watches an owner', async () => {
    const ids = ['w-a', 'w-b', 'w-c', 'w-d']
    const records = ids.map((id) => worker(id))
    const sample = OWNERS.slice(0, 100)
    await fc.assert(
      fc.asyncProperty(
        fc.shuffledSubarray(records, {
          minLength: records.length,
          maxLength: records.length,
        }),
        fc.constantFrom(...ids),
        async (listed, id) => {
          const a = await shardOf(id, records)
          const b = await shardOf(id, listed)
          expect(sample.map(b)).toEqual(sample.map(a))
        },
      ),
      { numRuns: 50 },
    )
  })

  test('for any set of live workers, every owner is watched by exactly one of them', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.stringMatching(/^[a-z0-9-]{1,12}$/), {
          minLength: 1,
          maxLength: 8,
        }),
        fc.array(
          fc
            .uint8Array({ minLength: 20, maxLength: 20 })
            .map((b) => `0x${Buffer.from(b).toString('hex')}`),
          { minLength: 1, maxLength: 20 },
        ),
        async (ids, addresses) => {
          const records = ids.map((id) => worker(id))
          for (const [owner, who] of await claims(ids, records, addresses)) {
            expect(who, owner).toHaveLength(1)
          }
        },
      ),
      { numRuns: 100 },
    )
  })
})
