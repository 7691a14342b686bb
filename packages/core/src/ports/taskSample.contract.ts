import { randomUUID } from 'node:crypto'
import { expect, test } from 'vitest'
import type { TaskSampleRecord } from '../domain/taskSample.js'
import type { Store } from './store.js'

const T = Date.UTC(2030, 3, 1)
const at = (ms: number) => new Date(ms).toISOString()

function sample(
  taskId: string,
  ms: number,
  over: Partial<TaskSampleRecord> = {},
): TaskSampleRecord {
  return {
    taskId,
    at: at(ms),
    fundingUsd: '1.250000',
    pnlTotalUsd: '-3.5',
    unrealizedUsd: '-4.75',
    feesUsd: '0',
    fundingApy: '12.34',
    longPrice: '100000.5',
    shortPrice: '100010',
    longLiqDistancePct: '45.1',
    shortLiqDistancePct: null,
    ...over,
  }
}

/** The task-sample repository's contract (see TaskSampleRepo). */
export function taskSampleTests(s: () => Store): void {
  test('taskSamples: add and list round-trip every field, decimals normalized', async () => {
    const id = randomUUID()
    const first = sample(id, T + 1_000)
    const second = sample(id, T + 61_000, {
      fundingApy: null,
      longPrice: null,
      shortPrice: null,
      longLiqDistancePct: null,
      shortLiqDistancePct: '7',
    })
    expect(await s().taskSamples.add([second, first], 60_000)).toBe(2)
    expect(await s().taskSamples.list(id, { limit: 10 })).toEqual([
      { ...first, fundingUsd: '1.25' },
      { ...second, fundingUsd: '1.25' },
    ])
    expect(await s().taskSamples.list(randomUUID(), { limit: 10 })).toEqual([])
  })

  test('taskSamples: at most one sample per task and slot', async () => {
    const a = randomUUID()
    const b = randomUUID()
    // T is a whole minute: T+1 s and T+59 s share a slot, T+60 s does not
    expect(
      await s().taskSamples.add(
        [sample(a, T + 1_000), sample(a, T + 59_000), sample(b, T + 2_000)],
        60_000,
      ),
    ).toBe(2)
    expect(await s().taskSamples.add([sample(a, T + 30_000)], 60_000)).toBe(0)
    expect(await s().taskSamples.add([sample(a, T + 60_000)], 60_000)).toBe(1)
    const rows = await s().taskSamples.list(a, { limit: 10 })
    expect(rows.map((r) => r.at)).toEqual([at(T + 1_000), at(T + 60_000)])
  })

  test('taskSamples: concurrent adds of one slot store one sample', async () => {
    const id = randomUUID()
    const stored = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        s().taskSamples.add([sample(id, T + 120_000 + i)], 60_000),
      ),
    )
    expect(stored.reduce((x, y) => x + y, 0)).toBe(1)
    expect(await s().taskSamples.list(id, { limit: 10 })).toHaveLength(1)
  })

  test('taskSamples: list keeps the newest `limit` at or after `since`, oldest first', async () => {
    const id = randomUUID()
    await s().taskSamples.add(
      Array.from({ length: 6 }, (_, i) => sample(id, T + i * 1_000)),
      1_000,
    )
    const times = async (page: { since?: string; limit: number }) =>
      (await s().taskSamples.list(id, page)).map((r) => Date.parse(r.at) - T)
    expect(await times({ limit: 3 })).toEqual([3_000, 4_000, 5_000])
    expect(await times({ since: at(T + 2_000), limit: 10 })).toEqual([
      2_000, 3_000, 4_000, 5_000,
    ])
    expect(
      await times({ since: '2030-04-01T00:00:04.000001Z', limit: 10 }),
    ).toEqual([5_000])
    expect(await times({ since: at(T + 9_000), limit: 10 })).toEqual([])
  })

  test('taskSamples: a rolled-back add is not kept', async () => {
    const id = randomUUID()
    await expect(
      s().transaction(async (tx) => {
        await tx.taskSamples.add([sample(id, T)], 60_000)
        throw new Error('rollback')
      }),
    ).rejects.toThrow('rollback')
    expect(await s().taskSamples.list(id, { limit: 10 })).toEqual([])
  })
}
