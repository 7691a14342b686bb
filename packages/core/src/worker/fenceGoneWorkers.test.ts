import { describe, expect, test } from 'vitest'
import type { WorkerRecord } from '../domain/worker.js'
import { fenceGoneWorkers } from './fenceGoneWorkers.js'

const HOST = 'box|boot-1|pid:[4026531836]'

function setup(workers: WorkerRecord[]) {
  const fenced: string[] = []
  const released: string[] = []
  const logged: unknown[] = []
  const deps = {
    workerId: 'me',
    store: {
      workers: {
        list: async () => workers,
        fence: async (id: string) => {
          if (fenced.includes(id)) return false
          fenced.push(id)
          return true
        },
      },
      locks: {
        releaseHeldBy: async (prefix: string) => {
          released.push(prefix)
          return 1
        },
      },
    } as never,
    logger: {
      info: (_m: string, f?: Record<string, unknown>) => logged.push(f),
      error: () => {},
    },
  }
  return { deps, fenced, released, logged }
}

const worker = (over: Partial<WorkerRecord>): WorkerRecord => ({
  id: 'w',
  startedAt: '2026-11-26T10:00:00.000Z',
  heartbeatAt: '2026-11-26T10:00:05.000Z',
  fencedAt: null,
  host: HOST,
  pid: 100,
  ...over,
})

describe('fenceGoneWorkers', () => {
  test('behavior: fences workers of this host whose pid is gone or is ours; leaves the rest', async () => {
    const running = new Set([200, 300])
    const { deps, fenced, released, logged } = setup([
      worker({ id: 'gone', pid: 100 }),
      worker({ id: 'alive', pid: 200 }),
      worker({ id: 'reused-our-pid', pid: 555 }),
      worker({ id: 'other-host', host: 'elsewhere|boot|ns', pid: 101 }),
      worker({ id: 'no-host', host: null, pid: 102 }),
      worker({ id: 'no-pid', pid: null }),
      worker({ id: 'already-fenced', pid: 103, fencedAt: 'x' }),
      worker({ id: 'me', pid: 555 }),
    ])
    const self = {
      host: HOST,
      pid: 555,
      isRunning: (p: number) => running.has(p),
    }
    expect(await fenceGoneWorkers(deps, self, Date.now())).toEqual([
      'gone',
      'reused-our-pid',
    ])
    expect(fenced).toEqual(['gone', 'reused-our-pid'])
    // their account locks go with them
    expect(released).toEqual(['gone|', 'reused-our-pid|'])
    expect(logged).toHaveLength(2)
    // another process fenced it first: not logged twice
    expect(await fenceGoneWorkers(deps, self, Date.now())).toEqual([])
  })

  test('behavior: a process that cannot tell its host judges no one', async () => {
    const { deps, fenced } = setup([worker({ id: 'gone', pid: 100 })])
    const self = { host: null, pid: 555, isRunning: () => false }
    expect(await fenceGoneWorkers(deps, self, Date.now())).toEqual([])
    expect(fenced).toEqual([])
  })
})
