import { expect, test } from 'vitest'
import type { TaskRecord } from '../domain/task.js'
import {
  type StoreContractDatabases,
  task,
  withOwnDatabase,
} from './store.contract.js'

const at = (ms: number) => new Date(ms).toISOString()
const NOW = Date.UTC(2030, 5, 1)

/**
 * The monitor sweep's reads and writes: which running rows it watches, and
 * that what it observed lands only on the row it read. Each test has a
 * database of its own: listWatched scans the whole table.
 */
export function taskWatchTests(databases: StoreContractDatabases) {
  const watched = (over: Partial<TaskRecord> = {}) =>
    task({
      status: 'running',
      fence: 4,
      nextCheckAt: at(NOW + 3_600_000),
      ...over,
    })

  test('tasks: listWatched takes running, unleased rows, due or not, by id, paged', () =>
    withOwnDatabase(databases, async (store) => {
      const kept = [
        ...Array.from({ length: 3 }, () => watched()),
        // due for a claim: watched until a worker claims it (funding
        // comes due for every task at once on the hour)
        watched({ nextCheckAt: at(NOW - 1) }),
        watched({ nextCheckAt: null }),
      ]
      const left = [
        watched({ status: 'resizing' }),
        watched({ status: 'closing' }),
        watched({ status: 'pending' }),
        // leased: a worker is acting on it
        watched({ leaseOwner: 'w1', leaseExpiresAt: at(NOW + 30_000) }),
      ]
      for (const t of [...kept, ...left]) await store.tasks.insert(t)
      const ids = kept.map((t) => t.id).sort()
      const all = await store.tasks.listWatched({ limit: 100 })
      expect(all.map((t) => t.id)).toEqual(ids)
      expect(all.find((t) => t.id === kept[0]?.id)).toEqual(kept[0])
      const first = await store.tasks.listWatched({ limit: 2 })
      expect(first.map((t) => t.id)).toEqual(ids.slice(0, 2))
      const rest = await store.tasks.listWatched({
        afterId: ids[1],
        limit: 100,
      })
      expect(rest.map((t) => t.id)).toEqual(ids.slice(2))
      expect(await store.tasks.listWatched({ limit: 0 })).toEqual([])
    }))

  test('tasks: recordObservations writes a row only at the fence it was read with, and raises it', () =>
    withOwnDatabase(databases, async (store) => {
      const [same, stale, leased, closing] = [
        watched(),
        watched(),
        watched({ leaseOwner: 'w1', leaseExpiresAt: at(NOW + 30_000) }),
        watched({ status: 'closing' }),
      ] as const
      for (const t of [same, stale, leased, closing]) {
        await store.tasks.insert(t)
      }
      const patch = {
        longPrice: '101.5',
        error: null,
        engineState: {
          op: null,
          seq: 1,
          fundingSince: null,
          fundingBelowSince: null,
          nearThreshold: true,
        },
        updatedAt: at(NOW),
      }
      const written = await store.tasks.recordObservations([
        { id: same.id, fence: 4, patch },
        { id: stale.id, fence: 3, patch },
        { id: leased.id, fence: 4, patch },
        { id: closing.id, fence: 4, patch },
      ])
      expect(written).toEqual([same.id])
      expect(await store.tasks.get(same.id)).toEqual({
        ...same,
        ...patch,
        fence: 5,
      })
      for (const t of [stale, leased, closing]) {
        expect(await store.tasks.get(t.id)).toEqual(t)
      }
      // a second write with the fence read before the first is fenced out
      expect(
        await store.tasks.recordObservations([
          {
            id: same.id,
            fence: 4,
            patch: { longPrice: '1', updatedAt: patch.updatedAt },
          },
        ]),
      ).toEqual([])
      expect((await store.tasks.get(same.id))?.longPrice).toBe('101.5')
      expect(await store.tasks.recordObservations([])).toEqual([])
    }))

  test('tasks: recordObservations writes a page of hundreds of rows, each with its own columns and fence', () =>
    withOwnDatabase(databases, async (store) => {
      const rows = Array.from({ length: 250 }, (_, i) =>
        watched({ fence: i % 7 === 0 ? 9 : 4 }),
      )
      for (const t of rows) await store.tasks.insert(t)
      // three shapes of change; every seventh row was claimed since (its
      // fence moved on) and is left alone
      const patchOf = (i: number) =>
        i % 3 === 0
          ? { longPrice: `${100 + i}.25`, updatedAt: at(NOW + i) }
          : i % 3 === 1
            ? {
                shortPrice: `${200 + i}.5`,
                error: null,
                updatedAt: at(NOW + i),
              }
            : {
                longPrice: `${300 + i}`,
                shortPrice: '0.000001',
                liqProtectionPct: '12.5',
                engineState: {
                  op: null,
                  seq: i,
                  fundingSince: null,
                  fundingBelowSince: at(NOW),
                },
                updatedAt: at(NOW + i),
              }
      const entries = rows.map((t, i) => ({
        id: t.id,
        fence: 4,
        patch: patchOf(i),
      }))
      const written = await store.tasks.recordObservations(entries)
      const expected = rows.filter((_, i) => i % 7 !== 0).map((t) => t.id)
      expect(written).toEqual(expected)
      for (const [i, t] of rows.entries()) {
        const after = await store.tasks.get(t.id)
        if (i % 7 === 0) expect(after).toEqual(t)
        else expect(after).toEqual({ ...t, ...patchOf(i), fence: 5 })
      }
    }))

  test('tasks: recordObservations never changes identity columns', () =>
    withOwnDatabase(databases, async (store) => {
      const t = watched()
      await store.tasks.insert(t)
      await store.tasks.recordObservations([
        {
          id: t.id,
          fence: 4,
          patch: {
            owner: '0xdead',
            createdAt: at(NOW),
            updatedAt: at(NOW),
          } as never,
        },
      ])
      const after = await store.tasks.get(t.id)
      expect(after?.owner).toBe(t.owner)
      expect(after?.createdAt).toBe(t.createdAt)
    }))

  test('tasks: a claim after the sweep read a row fences the sweep out', () =>
    withOwnDatabase(databases, async (store) => {
      const t = watched({ nextCheckAt: at(NOW + 1_000) })
      await store.tasks.insert(t)
      const [read] = await store.tasks.listWatched({ limit: 10 })
      expect(read?.id).toBe(t.id)
      const claimed = await store.tasks.claim({
        workerId: 'w1',
        now: at(NOW + 2_000),
        leaseMs: 30_000,
        statuses: ['running'],
        limit: 10,
      })
      expect(claimed.map((c) => c.id)).toEqual([t.id])
      expect(
        await store.tasks.recordObservations([
          {
            id: t.id,
            fence: read?.fence ?? -1,
            patch: { longPrice: '1', updatedAt: at(NOW) },
          },
        ]),
      ).toEqual([])
      expect((await store.tasks.get(t.id))?.longPrice).toBe(t.longPrice)
    }))
}
