import { describe, expect, test } from 'vitest'
import type { VenueId } from '../domain/venue.js'
import type { WorkerRecord } from '../domain/worker.js'
import { VenueRejectedError, VenueUnavailableError } from '../errors/venue.js'
import type { RestingMarket, Store } from '../ports/store.js'
import type {
  CancelAllSwitch,
  VenueAdapter,
  VenueCredential,
} from '../ports/venueAdapter.js'
import {
  createDeadManSwitches,
  DEAD_MAN_REARM_MS,
  DEAD_MAN_WINDOW_MS,
} from './deadManSwitches.js'
import { ownerShard } from './ownerShard.js'
import type { WorkerDeps, WorkerLogger } from './workerDeps.js'

const T0 = Date.UTC(2030, 5, 1, 12)
const iso = (ms: number) => new Date(ms).toISOString()
const A = '0x00000000000000000000000000000000000000a1'
const B = '0x00000000000000000000000000000000000000b2'

const ACCOUNT: CancelAllSwitch = {
  scope: 'account',
  minLeadMs: 5_000,
  maxLeadMs: 86_400_000,
}
const MARKET: CancelAllSwitch = {
  scope: 'market',
  minLeadMs: 1_000,
  maxLeadMs: 86_400_000,
}

interface Call {
  readonly venue: VenueId
  readonly owner: string
  readonly markets: readonly string[]
  readonly at: number | null
}

/** A worker's deps over in-memory rows, adapters that record each arm. */
function bed(workerId = 'w-me') {
  let rows: RestingMarket[] = []
  let workers: WorkerRecord[] = []
  const calls: Call[] = []
  const logged: { level: string; msg: string; fields: unknown }[] = []
  let failWith: Error | null = null
  const adapter = (venue: VenueId, sw: CancelAllSwitch) =>
    ({
      venue,
      cancelAllSwitch: sw,
      async armCancelAll(
        cred: VenueCredential,
        markets: readonly string[],
        at: number | null,
      ) {
        if (failWith) throw failWith
        calls.push({ venue, owner: cred.owner, markets: [...markets], at })
      },
    }) as unknown as VenueAdapter
  const store = {
    orders: { listRestingMarkets: async () => [...rows] },
    workers: { list: async () => [...workers] },
    bindings: {
      get: async (owner: string, venue: VenueId) => ({
        id: `b-${owner}-${venue}`,
        owner,
        venue,
        status: 'bound',
        accountIndex: null,
        credentialRef: 'ref',
        credentialCiphertext: 'sealed',
        unusableCode: null,
      }),
    },
  } as unknown as Store
  const logger: WorkerLogger = {
    info: (msg, fields) => logged.push({ level: 'info', msg, fields }),
    error: (msg, fields) => logged.push({ level: 'error', msg, fields }),
  }
  const deps = {
    store,
    clock: { now: () => T0 },
    adapters: {
      hl: adapter('hl', ACCOUNT),
      aster: adapter('aster', MARKET),
      // no switch: never armed
      lighter: { venue: 'lighter' } as unknown as VenueAdapter,
      'lighter-mainnet': adapter('lighter-mainnet', ACCOUNT),
    },
    secrets: { decrypt: () => 'secret', encrypt: () => 'sealed' },
    workerId,
    leaseMs: 30_000,
    fundingGraceMs: 3_600_000,
    logger,
  } as unknown as WorkerDeps
  return {
    deps,
    calls,
    logged,
    rest(...r: [string, VenueId, string][]) {
      rows = r.map(([owner, venue, market]) => ({ owner, venue, market }))
    },
    setWorkers(ids: string[], now: number) {
      workers = ids.map((id) => ({
        id,
        startedAt: iso(now - 60_000),
        heartbeatAt: iso(now - 1_000),
        fencedAt: null,
      }))
    },
    fail(err: Error | null) {
      failWith = err
    },
    arm: createDeadManSwitches(deps),
  }
}

describe('createDeadManSwitches', () => {
  test('default: arms each account with a resting order once, then not every heartbeat', async () => {
    const b = bed()
    b.rest([A, 'hl', 'ETH'], [A, 'hl', 'BTC'], [A, 'lighter', 'SOL'])
    await b.arm(T0)
    expect(b.calls).toEqual([
      {
        venue: 'hl',
        owner: A,
        markets: ['ETH', 'BTC'],
        at: T0 + 5_000 + DEAD_MAN_WINDOW_MS,
      },
    ])
    for (let t = T0 + 2_000; t < T0 + 60_000; t += 2_000) await b.arm(t)
    expect(b.calls).toHaveLength(1)
  })

  test('behavior: re-arms before the switch comes near, pushing it out', async () => {
    const b = bed()
    b.rest([A, 'hl', 'ETH'])
    await b.arm(T0)
    const at = T0 + 5_000 + DEAD_MAN_WINDOW_MS
    // re-armed once less than the lead plus DEAD_MAN_REARM_MS is left
    const due = at - 5_000 - DEAD_MAN_REARM_MS
    await b.arm(due)
    expect(b.calls).toHaveLength(1)
    await b.arm(due + 1)
    expect(b.calls).toHaveLength(2)
    expect(b.calls[1]?.at).toBe(due + 1 + 5_000 + DEAD_MAN_WINDOW_MS)
    expect(b.calls[1]?.at).toBeGreaterThan(at)
  })

  test('behavior: clears once when nothing rests any more', async () => {
    const b = bed()
    b.rest([A, 'hl', 'ETH'], [B, 'hl', 'ETH'])
    await b.arm(T0)
    expect(b.calls).toHaveLength(2)
    b.rest([B, 'hl', 'ETH'])
    await b.arm(T0 + 2_000)
    await b.arm(T0 + 4_000)
    expect(b.calls.slice(2)).toEqual([
      { venue: 'hl', owner: A, markets: ['ETH'], at: null },
    ])
  })

  test('behavior: a market-scoped venue arms a market that joins and stops one that left', async () => {
    const b = bed()
    b.rest([A, 'aster', 'ETHUSDT'])
    await b.arm(T0)
    b.rest([A, 'aster', 'ETHUSDT'], [A, 'aster', 'BTCUSDT'])
    await b.arm(T0 + 2_000)
    b.rest([A, 'aster', 'BTCUSDT'])
    await b.arm(T0 + 4_000)
    expect(b.calls.map((c) => [c.markets, c.at])).toEqual([
      [['ETHUSDT'], T0 + 1_000 + DEAD_MAN_WINDOW_MS],
      [['ETHUSDT', 'BTCUSDT'], T0 + 2_000 + 1_000 + DEAD_MAN_WINDOW_MS],
      [['ETHUSDT'], null],
    ])
  })

  test('behavior: only owners of its shard are armed', async () => {
    const owners = Array.from(
      { length: 40 },
      (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}`,
    )
    const b = bed('w-me')
    b.setWorkers(['w-me', 'w-other'], T0)
    b.rest(...owners.map((o) => [o, 'hl', 'ETH'] as [string, VenueId, string]))
    await b.arm(T0)
    const mine = await ownerShard(b.deps, T0)
    const expected = owners.filter(mine)
    expect(expected.length).toBeGreaterThan(0)
    expect(expected.length).toBeLessThan(owners.length)
    expect(b.calls.map((c) => c.owner).sort()).toEqual(expected.sort())
  })

  test('behavior: an owner that leaves the shard is forgotten, not cleared', async () => {
    const b = bed('w-me')
    b.rest([A, 'hl', 'ETH'])
    await b.arm(T0)
    expect(b.calls).toHaveLength(1)
    // a second worker comes up; whichever of them holds A now, we do not clear
    b.setWorkers(['w-me', 'w-a', 'w-b', 'w-c'], T0 + 2_000)
    const mine = await ownerShard(b.deps, T0 + 2_000)
    b.rest()
    await b.arm(T0 + 2_000)
    expect(b.calls.slice(1)).toEqual(
      mine(A) ? [{ venue: 'hl', owner: A, markets: ['ETH'], at: null }] : [],
    )
  })

  test('error: a failure is logged once per account and retried later', async () => {
    const b = bed()
    b.rest([A, 'hl', 'ETH'])
    b.fail(new VenueUnavailableError('hyperliquid: budget'))
    await b.arm(T0)
    await b.arm(T0 + 2_000)
    await b.arm(T0 + 16_000)
    const errors = b.logged.filter((l) => l.level === 'error')
    expect(errors).toHaveLength(1)
    expect(errors[0]?.fields).toMatchObject({
      owner: A,
      venue: 'hl',
      error: 'hyperliquid: budget',
    })
    expect(JSON.stringify(b.logged)).not.toContain('secret')
    b.fail(null)
    await b.arm(T0 + 18_000)
    expect(b.calls).toHaveLength(0)
    await b.arm(T0 + 32_000)
    expect(b.calls).toHaveLength(1)
    expect(b.logged.at(-1)?.msg).toBe('dead-man switch set again')
  })

  test('error: a refusal (e.g. the venue’s volume rule) is retried only after minutes', async () => {
    const b = bed()
    b.rest([A, 'hl', 'ETH'])
    b.fail(
      new VenueRejectedError(
        'Cannot set scheduled cancel time until enough volume traded.',
      ),
    )
    await b.arm(T0)
    b.fail(null)
    await b.arm(T0 + 300_000)
    expect(b.calls).toHaveLength(0)
    await b.arm(T0 + 600_000)
    expect(b.calls).toHaveLength(1)
  })
})
