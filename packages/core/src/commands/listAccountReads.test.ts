import { describe, expect, test } from 'vitest'
import type { BoundAccountSnapshot } from '../domain/accountSnapshot.js'
import type { ApiKeyRecord } from '../domain/apiKey.js'
import type { PerpOrderRecord } from '../domain/perpOrder.js'
import type { TaskRecord } from '../domain/task.js'
import { EMPTY_ENGINE_STATE } from '../domain/taskEngineState.js'
import type { VenueId } from '../domain/venue.js'
import { ForbiddenError } from '../errors/domain.js'
import type { AccountReadDeps } from './grantedAccounts.js'
import { listBalances } from './listBalances.js'
import { listPositions, type PositionReadDeps } from './listPositions.js'

const NOW = Date.UTC(2030, 0, 1, 12)
const iso = (ms: number) => new Date(ms).toISOString()
const key = {
  owner: '0xabc',
  venues: ['hl', 'lighter'],
} as unknown as ApiKeyRecord

/**
 * A store with an hl snapshot and a Lighter account not read yet; `tasks`
 * and `orders` the holders of the account markets.
 */
function deps(
  asked: VenueId[][] = [],
  holders: { tasks?: TaskRecord[]; orders?: PerpOrderRecord[] } = {},
): PositionReadDeps {
  const rows: BoundAccountSnapshot[] = [
    {
      venue: 'hl',
      accountIndex: null,
      snapshot: {
        owner: '0xabc',
        venue: 'hl',
        accountIndex: null,
        positions: [
          {
            market: 'ETH',
            size: '-0.50',
            entryPrice: '3000',
            markPrice: '3010.5',
            leverage: '3',
            marginMode: 'cross',
            liquidationPrice: '4000.0',
          },
        ],
        readAt: iso(NOW - 4_000),
        balance: {
          equityUsd: '1000.10',
          availableUsd: '900',
          marginUsedUsd: '100.1',
        },
        balanceReadAt: iso(NOW - 30_000),
      },
    },
    { venue: 'lighter', accountIndex: '7', snapshot: null },
  ]
  return {
    clock: { now: () => NOW },
    store: {
      accountSnapshots: {
        listByOwner: async (owner, venues) => {
          expect(owner).toBe('0xabc')
          asked.push([...venues])
          return rows.filter((r) => venues.includes(r.venue))
        },
      } as AccountReadDeps['store']['accountSnapshots'],
      tasks: {
        listOnMarket: async () => holders.tasks ?? [],
      } as unknown as PositionReadDeps['store']['tasks'],
      orders: {
        listOnMarket: async () => holders.orders ?? [],
      } as unknown as PositionReadDeps['store']['orders'],
    },
  }
}

describe('listPositions', () => {
  test('side and size from the signed size; PnL exact; age from the read', async () => {
    expect(await listPositions(deps(), key)).toEqual({
      accounts: [
        {
          venue: 'hl',
          accountIndex: null,
          readAt: iso(NOW - 4_000),
          ageMs: 4_000,
          positions: [
            {
              market: 'ETH',
              side: 'short',
              sizeBase: '0.5',
              entryPrice: '3000',
              markPrice: '3010.5',
              // -0.5 × (3010.5 − 3000)
              unrealizedPnlUsd: '-5.25',
              leverage: '3',
              marginMode: 'cross',
              liquidationPrice: '4000',
              // no task or direct order of dn holds it
              holders: [
                {
                  kind: 'unattributed',
                  taskId: null,
                  leg: null,
                  sizeBase: '-0.5',
                },
              ],
            },
          ],
        },
        // bound, not read yet: listed, so the caller sees it exists
        {
          venue: 'lighter',
          accountIndex: '7',
          readAt: null,
          ageMs: null,
          positions: [],
        },
      ],
    })
  })

  /** a task short hl ETH (long aster ETHUSDT) */
  const ethTask = (id: string, patch: Partial<TaskRecord>) =>
    ({
      id,
      owner: '0xabc',
      longVenue: 'aster',
      longMarket: 'ETHUSDT',
      shortVenue: 'hl',
      shortMarket: 'ETH',
      engineState: null,
      ...patch,
    }) as unknown as TaskRecord
  /** a filled direct short of `size` hl ETH */
  const ethShort = (size: string) =>
    ({
      venue: 'hl',
      market: 'ETH',
      side: 'short',
      status: 'filled',
      sizeBase: size,
      requestedBase: size,
      filledBase: size,
    }) as unknown as PerpOrderRecord
  const holdersOf = async (tasks: TaskRecord[], orders: PerpOrderRecord[]) =>
    (await listPositions(deps([], { tasks, orders }), key)).accounts[0]
      ?.positions[0]?.holders

  const TASK = '00000000-0000-4000-8000-000000000001'
  const holderCases = [
    {
      name: 'a task leg, the direct orders, and what no one in dn holds add up to the net',
      task: { status: 'running', longSize: '0.3', shortSize: '0.3' },
      direct: '0.1',
      holders: [
        { kind: 'task_leg', taskId: TASK, leg: 'short', sizeBase: '-0.3' },
        { kind: 'direct_orders', taskId: null, leg: null, sizeBase: '-0.1' },
        { kind: 'unattributed', taskId: null, leg: null, sizeBase: '-0.1' },
      ],
    },
    {
      name: 'what an ended task’s close left at the venue is that task’s, not unattributed',
      task: {
        status: 'closed',
        longSize: '0',
        shortSize: '0',
        engineState: { ...EMPTY_ENGINE_STATE, leftAtVenue: { short: '0.1' } },
      },
      direct: '0.4',
      holders: [
        { kind: 'left_at_venue', taskId: TASK, leg: 'short', sizeBase: '-0.1' },
        { kind: 'direct_orders', taskId: null, leg: null, sizeBase: '-0.4' },
      ],
    },
  ] as const
  test.each(holderCases.map((c) => [c.name, c] as const))(
    'holders: %s',
    async (_, { task, direct, holders }) => {
      const t = ethTask(TASK, task as Partial<TaskRecord>)
      expect(await holdersOf([t], [ethShort(direct)])).toEqual(holders)
    },
  )

  test('every granted venue, or the one asked; one not granted is 403', async () => {
    const asked: VenueId[][] = []
    await listPositions(deps(asked), key)
    await listPositions(deps(asked), key, 'lighter')
    expect(asked).toEqual([['hl', 'lighter'], ['lighter']])
    await expect(listPositions(deps(), key, 'aster')).rejects.toBeInstanceOf(
      ForbiddenError,
    )
  })
})

describe('listBalances', () => {
  test("the balance's own read time and age; nulls when not read yet", async () => {
    expect(await listBalances(deps(), key)).toEqual({
      accounts: [
        {
          venue: 'hl',
          accountIndex: null,
          readAt: iso(NOW - 30_000),
          ageMs: 30_000,
          equityUsd: '1000.1',
          availableUsd: '900',
          marginUsedUsd: '100.1',
        },
        {
          venue: 'lighter',
          accountIndex: '7',
          readAt: null,
          ageMs: null,
          equityUsd: null,
          availableUsd: null,
          marginUsedUsd: null,
        },
      ],
    })
    await expect(listBalances(deps(), key, 'aster')).rejects.toMatchObject({
      code: 'venue_not_granted',
    })
  })
})
