import { randomBytes, randomUUID } from 'node:crypto'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { ApiKeyRecord } from '../domain/apiKey.js'
import type {
  BindingBatchRecord,
  BindingBatchStatus,
  BindingVenueEntry,
} from '../domain/bindingBatch.js'
import type { IdempotencyRecord } from '../domain/idempotency.js'
import type { Lease } from '../domain/lease.js'
import type { PerpOrderRecord, PerpOrderStatus } from '../domain/perpOrder.js'
import type { RequestFamily, RequestLogRecord } from '../domain/requestLog.js'
import type { TaskRecord, TaskStatus } from '../domain/task.js'
import { EMPTY_ENGINE_STATE } from '../domain/taskEngineState.js'
import type { VenueId } from '../domain/venue.js'
import type { VenueBindingRecord } from '../domain/venueBinding.js'
import { accountSnapshotTests } from './accountSnapshot.contract.js'
import { changeMarkTests } from './changeMark.contract.js'
import type { ClaimRequest, ListFilter, Store } from './store.js'
import { taskSampleTests } from './taskSample.contract.js'
import { taskWatchTests } from './taskWatch.contract.js'

/** How the contract reaches databases. */
export interface StoreContractDatabases {
  /**
   * Opens a new store on the database called `database` (a short lowercase
   * identifier), empty on its first open. The caller closes it.
   */
  open(database: string): Promise<Store>
  /**
   * True when two opens of one name are separate stores on the same rows
   * that may work concurrently within one process (a PostgreSQL schema).
   * False for SQLite: `:memory:` opens are separate databases, and two
   * stores on one file in one process would block each other, the driver
   * being synchronous (processes sharing a file are tested on their own).
   */
  readonly shared: boolean
}

/**
 * The behaviour every {@link Store} must show, whatever the database. Most
 * tests share one store and make their own owners, ids and buckets; claim
 * tests, which scan whole tables, each get a database of their own.
 * @param name shown in the test names
 */
export function runStoreContract(
  name: string,
  databases: StoreContractDatabases,
): void {
  describe(`${name}: store contract`, () => {
    let store: Store
    beforeAll(async () => {
      store = await databases.open('main')
    })
    afterAll(async () => {
      await store?.close()
    })
    const s = () => store

    apiKeyTests(s)
    bindingTests(s)
    taskTests(s)
    taskListTests(s)
    orderTests(s)
    activeCountTests(s)
    bindingBatchTests(s, databases)
    idempotencyTests(s)
    requestLogTests(s)
    venueBudgetTests(s)
    rateLimitTests(s)
    nonceAndWorkerTests(s)
    transactionTests(s)
    for (const kind of [taskKind, orderKind, batchKind]) {
      claimTests(databases, kind)
    }
    busyMarketTests(databases)
    taskWatchTests(databases)
    accountSnapshotTests(s, databases)
    taskSampleTests(s)
    counterTests(s)
    lockTests(s)
    notifyTests(s, databases)
    changeMarkTests(databases)
    workQueueTests(databases)
    takenOverTests(databases)
  })
}

type GetStore = () => Store

let databaseCount = 0
/**
 * Runs `fn` on a store over a database of its own; `peer` opens another
 * store on the same rows (undefined when the databases are not shared).
 * Closes every store it opened.
 */
export async function withOwnDatabase<T>(
  databases: StoreContractDatabases,
  fn: (store: Store, peer: (() => Promise<Store>) | undefined) => Promise<T>,
): Promise<T> {
  databaseCount += 1
  const database = `own${databaseCount}`
  const opened: Store[] = []
  const open = async () => {
    const store = await databases.open(database)
    opened.push(store)
    return store
  }
  try {
    return await fn(await open(), databases.shared ? open : undefined)
  } finally {
    await Promise.all(opened.map((s) => s.close()))
  }
}

// ---------------------------------------------------------------- fixtures

const newOwner = () => `0x${randomBytes(20).toString('hex')}`
/** a random whole-millisecond instant in 2030, so stored values round-trip */
const baseMs = () => Date.UTC(2030, 0, 1) + Math.floor(Math.random() * 1e10)
const iso = (ms: number) => new Date(ms).toISOString()
const ALL_VENUES: readonly VenueId[] = [
  'aster',
  'hl',
  'lighter',
  'lighter-mainnet',
]

function apiKey(over: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  return {
    id: randomUUID(),
    owner: newOwner(),
    env: 'live',
    venues: ['hl', 'aster'],
    maxSizeUsd: '1000',
    label: 'bot',
    secretHash: randomBytes(32).toString('hex'),
    createdAt: iso(baseMs()),
    revokedAt: null,
    ...over,
  }
}

/** A new task row with every field set; `over` replaces any of them. */
export function task(over: Partial<TaskRecord> = {}): TaskRecord {
  const at = iso(baseMs())
  return {
    id: randomUUID(),
    owner: newOwner(),
    apiKeyId: randomUUID(),
    longVenue: 'hl',
    shortVenue: 'aster',
    longMarket: 'BTC',
    shortMarket: 'BTCUSDT',
    sizeUsd: '1500',
    minFundingApy: '0.1',
    autoClose: true,
    maxSpreadBps: null,
    status: 'pending',
    longSize: null,
    shortSize: null,
    longEntry: null,
    shortEntry: null,
    longPrice: null,
    shortPrice: null,
    longLeverage: null,
    shortLeverage: null,
    liqProtectionPct: null,
    sizeMismatchPct: null,
    fundingUsd: '0',
    longMarginMode: null,
    shortMarginMode: null,
    closeReason: null,
    error: null,
    closeRequestedAt: null,
    resizeRequest: null,
    engineState: null,
    leaseOwner: null,
    leaseExpiresAt: null,
    fence: 0,
    nextCheckAt: null,
    createdAt: at,
    updatedAt: at,
    ...over,
  }
}

function order(over: Partial<PerpOrderRecord> = {}): PerpOrderRecord {
  const at = baseMs()
  return {
    id: randomUUID(),
    owner: newOwner(),
    apiKeyId: randomUUID(),
    venue: 'hl',
    market: 'ETH',
    side: 'long',
    orderType: 'limit',
    sizeBase: '0.5',
    requestedLimitPrice: '2500.5',
    limitPrice: '2500.5',
    timeInForce: 'gtc',
    slippageBps: 50,
    reduceOnly: false,
    status: 'pending',
    requestedBase: null,
    filledBase: '0',
    averagePrice: null,
    clientOrderId: `0x${randomBytes(16).toString('hex')}`,
    venueOrderId: null,
    venueStatus: null,
    error: null,
    cancelRequestedAt: null,
    submittedAt: null,
    sendBy: null,
    observedAt: null,
    expiresAt: iso(at + 60_000),
    createdAt: iso(at),
    updatedAt: iso(at),
    resolution: null,
    leaseOwner: null,
    leaseExpiresAt: null,
    fence: 0,
    nextCheckAt: null,
    ...over,
  }
}

/** A venue entry with nested typed-data requests and signatures. */
function venueEntry(over: Partial<BindingVenueEntry> = {}): BindingVenueEntry {
  return {
    target: { venue: 'hl', signatureChainId: 42161, rebind: false },
    status: 'awaiting_signatures',
    sessionId: randomUUID(),
    code: null,
    retryable: null,
    requests: [
      {
        requestId: randomUUID(),
        venue: 'hl',
        action: 'approveAgent',
        method: 'eth_signTypedData_v4',
        payload: {
          domain: {
            name: 'HyperliquidSignTransaction',
            version: '1',
            chainId: 42161,
            verifyingContract: '0x0000000000000000000000000000000000000000',
          },
          types: {
            'HyperliquidTransaction:ApproveAgent': [
              { name: 'hyperliquidChain', type: 'string' },
              { name: 'agentAddress', type: 'address' },
              { name: 'agentName', type: 'string' },
              { name: 'nonce', type: 'uint64' },
            ],
          },
          primaryType: 'HyperliquidTransaction:ApproveAgent',
          message: {
            hyperliquidChain: 'Mainnet',
            agentAddress: newOwner(),
            agentName: 'dn "agent" \u00e9\n',
            nonce: 1893456000000,
            nested: { list: [1, 'two', null, true, { deep: [] }] },
          },
        },
      },
      {
        requestId: randomUUID(),
        venue: 'hl',
        action: 'approveBuilderFee',
        method: 'personal_sign',
        payload: { message: 'approve builder fee\nline two' },
      },
    ],
    signatures: {},
    credentialRef: null,
    credentialCiphertext: null,
    context: {},
    ...over,
  }
}

function batch(over: Partial<BindingBatchRecord> = {}): BindingBatchRecord {
  const at = baseMs()
  return {
    id: randomUUID(),
    owner: newOwner(),
    nonce: randomBytes(16).toString('hex'),
    requestHash: randomBytes(32).toString('hex'),
    status: 'awaiting_signatures',
    expiresAt: iso(at + 600_000),
    venues: [venueEntry()],
    leaseOwner: null,
    leaseExpiresAt: null,
    fence: 0,
    nextCheckAt: null,
    createdAt: iso(at),
    updatedAt: iso(at),
    ...over,
  }
}

function idem(over: Partial<IdempotencyRecord> = {}): IdempotencyRecord {
  return {
    scope: `owner:${newOwner()}`,
    key: randomUUID(),
    method: 'POST',
    path: '/v1/delta-neutral/tasks',
    fingerprint: randomBytes(32).toString('hex'),
    status: 202,
    body: JSON.stringify({ taskId: randomUUID(), status: 'pending' }),
    createdAt: iso(baseMs()),
    ...over,
  }
}

function requestLog(
  apiKeyId: string,
  family: RequestFamily,
  createdMs: number,
  over: Partial<RequestLogRecord> = {},
): RequestLogRecord {
  return {
    id: randomUUID(),
    apiKeyId,
    family,
    action: 'create_task',
    method: 'POST',
    path: '/v1/delta-neutral/tasks',
    taskId: null,
    orderId: null,
    httpStatus: 202,
    errorCode: null,
    replayed: false,
    createdAt: iso(createdMs),
    ...over,
  }
}

const ids = (rows: readonly { id: string }[]) => rows.map((r) => r.id)
/** newest first: updatedAt desc, then id desc */
const newestFirst = <R extends { id: string; updatedAt: string }>(
  rows: readonly R[],
) =>
  [...rows].sort((a, b) =>
    a.updatedAt === b.updatedAt
      ? a.id < b.id
        ? 1
        : -1
      : a.updatedAt < b.updatedAt
        ? 1
        : -1,
  )

// ---------------------------------------------------------------- api keys

function apiKeyTests(store: GetStore) {
  test('apiKeys: insert and get round-trip every field', async () => {
    const key = apiKey({ maxSizeUsd: '1000.50', venues: ['lighter', 'hl'] })
    const bare = apiKey({ label: null })
    await store().apiKeys.insert(key)
    await store().apiKeys.insert(bare)
    expect(await store().apiKeys.get(key.id)).toEqual({
      ...key,
      maxSizeUsd: '1000.5',
    })
    expect(await store().apiKeys.get(bare.id)).toEqual(bare)
    expect(await store().apiKeys.get(randomUUID())).toBeUndefined()
    await expect(store().apiKeys.insert(key)).rejects.toThrow()
  })

  test('apiKeys: listByOwner filters owner and env, newest first', async () => {
    const owner = newOwner()
    const t = baseMs()
    const k1 = apiKey({ owner, createdAt: iso(t) })
    const k2 = apiKey({ owner, createdAt: iso(t + 1) })
    const k3 = apiKey({ owner, createdAt: iso(t + 2) })
    const otherEnv = apiKey({ owner, env: 'test', createdAt: iso(t + 3) })
    const otherOwner = apiKey({ createdAt: iso(t + 4) })
    for (const k of [k2, k1, otherEnv, k3, otherOwner]) {
      await store().apiKeys.insert(k)
    }
    expect(ids(await store().apiKeys.listByOwner(owner, 'live'))).toEqual([
      k3.id,
      k2.id,
      k1.id,
    ])
    expect(ids(await store().apiKeys.listByOwner(owner, 'test'))).toEqual([
      otherEnv.id,
    ])
  })

  test('apiKeys: revoke succeeds once', async () => {
    const key = apiKey()
    await store().apiKeys.insert(key)
    const at = iso(baseMs())
    expect(await store().apiKeys.revoke(key.id, at)).toBe(true)
    expect((await store().apiKeys.get(key.id))?.revokedAt).toBe(at)
    expect(await store().apiKeys.revoke(key.id, iso(baseMs()))).toBe(false)
    expect((await store().apiKeys.get(key.id))?.revokedAt).toBe(at)
    expect(await store().apiKeys.revoke(randomUUID(), at)).toBe(false)
  })
}

// ---------------------------------------------------------------- bindings

function bindingTests(store: GetStore) {
  const binding = (
    over: Partial<VenueBindingRecord> = {},
  ): VenueBindingRecord => {
    const at = iso(baseMs())
    return {
      id: randomUUID(),
      owner: newOwner(),
      venue: 'lighter',
      status: 'bound',
      accountIndex: '12345678901234567890',
      credentialRef: '7',
      credentialCiphertext: 'v1.abc.def',
      unusableCode: null,
      createdAt: at,
      updatedAt: at,
      ...over,
    }
  }

  test('bindings: upsert inserts, get and listByOwner read back', async () => {
    const owner = newOwner()
    const a = binding({ owner, venue: 'lighter' })
    const b = binding({
      owner,
      venue: 'aster',
      accountIndex: null,
      credentialRef: null,
      credentialCiphertext: null,
      status: 'unusable',
      unusableCode: 'credential_unreadable',
    })
    await store().bindings.upsert(a)
    await store().bindings.upsert(b)
    await store().bindings.upsert(binding({ venue: 'hl' }))
    expect(await store().bindings.get(owner, 'lighter')).toEqual(a)
    expect(await store().bindings.get(owner, 'aster')).toEqual(b)
    expect(await store().bindings.get(owner, 'hl')).toBeUndefined()
    expect(await store().bindings.listByOwner(owner)).toEqual([b, a])
  })

  test('bindings: upsert by (owner, venue) replaces state, keeps id', async () => {
    const first = binding()
    await store().bindings.upsert(first)
    const later = binding({
      owner: first.owner,
      venue: first.venue,
      status: 'revoked',
      credentialCiphertext: null,
      credentialRef: '9',
      updatedAt: iso(baseMs()),
    })
    await store().bindings.upsert(later)
    const rows = await store().bindings.listByOwner(first.owner)
    expect(rows).toEqual([
      { ...later, id: first.id, createdAt: first.createdAt },
    ])
  })

  test('bindings: markUnusable marks a bound row with that ciphertext, once', async () => {
    const b = binding()
    await store().bindings.upsert(b)
    const mark = {
      owner: b.owner,
      venue: b.venue,
      credentialCiphertext: 'v1.abc.def',
      code: 'credential_unreadable',
      updatedAt: iso(baseMs() + 1_000),
    }
    // another ciphertext (rebound since it was read) or venue: untouched
    expect(
      await store().bindings.markUnusable({
        ...mark,
        credentialCiphertext: 'v1.other',
      }),
    ).toBe(false)
    expect(await store().bindings.markUnusable({ ...mark, venue: 'hl' })).toBe(
      false,
    )
    expect(await store().bindings.get(b.owner, b.venue)).toEqual(b)
    // concurrent callers: exactly one changes it
    const results = await Promise.all([
      store().bindings.markUnusable(mark),
      store().bindings.markUnusable(mark),
    ])
    expect(results.filter(Boolean)).toHaveLength(1)
    expect(await store().bindings.markUnusable(mark)).toBe(false)
    expect(await store().bindings.get(b.owner, b.venue)).toEqual({
      ...b,
      status: 'unusable',
      unusableCode: 'credential_unreadable',
      updatedAt: mark.updatedAt,
    })
  })

  test('bindings: an upsert (a rebind) repairs an unusable row', async () => {
    const b = binding()
    await store().bindings.upsert(b)
    await store().bindings.markUnusable({
      owner: b.owner,
      venue: b.venue,
      credentialCiphertext: 'v1.abc.def',
      code: 'credential_unreadable',
      updatedAt: iso(baseMs()),
    })
    const rebound = binding({
      owner: b.owner,
      venue: b.venue,
      credentialCiphertext: 'v1.new',
      credentialRef: '8',
    })
    await store().bindings.upsert(rebound)
    expect(await store().bindings.get(b.owner, b.venue)).toEqual({
      ...rebound,
      id: b.id,
      createdAt: b.createdAt,
      unusableCode: null,
    })
  })
}

// ---------------------------------------------------------------- tasks

function taskTests(store: GetStore) {
  test('tasks: insert and get round-trip, decimals normalized', async () => {
    const at = baseMs()
    const full = task({
      sizeUsd: '1500.000',
      minFundingApy: '0.10',
      autoClose: false,
      maxSpreadBps: '12.5',
      status: 'running',
      longSize: '0.0150',
      shortSize: '123456789012345678901234567890.123456789',
      longEntry: '100000.1',
      shortEntry: '100010',
      longPrice: '1e-7',
      shortPrice: '99999',
      longLeverage: '3',
      shortLeverage: '2.5',
      liqProtectionPct: '20',
      sizeMismatchPct: '0.01',
      fundingUsd: '-1.25',
      longMarginMode: 'cross',
      shortMarginMode: 'isolated',
      closeReason: 'manual',
      error: 'boom',
      closeRequestedAt: iso(at + 5),
      resizeRequest: {
        longTargetBase: '0.02',
        shortTargetBase: null,
        requestedAt: iso(at + 6),
      },
      engineState: {
        op: {
          kind: 'open',
          seq: 3,
          startedAt: iso(at + 8),
          legs: {
            long: {
              clientOrderId: '0xabc',
              side: 'long',
              size: '0.015',
              price: '100000.1',
              reduceOnly: false,
              state: 'sending',
              filledBase: '0',
              averagePrice: null,
              failed: null,
            },
          },
        },
        seq: 3,
        fundingSince: iso(at + 9),
        fundingBelowSince: null,
      },
      leaseOwner: 'worker-1',
      leaseExpiresAt: iso(at + 7),
      fence: 4,
      nextCheckAt: iso(at + 10),
    })
    const bare = task()
    await store().tasks.insert(full)
    await store().tasks.insert(bare)
    expect(await store().tasks.get(full.id)).toEqual({
      ...full,
      sizeUsd: '1500',
      minFundingApy: '0.1',
      longSize: '0.015',
      longPrice: '0.0000001',
    })
    expect(await store().tasks.get(bare.id)).toEqual(bare)
    expect(await store().tasks.get(randomUUID())).toBeUndefined()
    await expect(store().tasks.insert(bare)).rejects.toThrow()
  })

  test('tasks: update changes only the patched columns', async () => {
    const t = task({ longSize: '1', error: 'old' })
    await store().tasks.insert(t)
    const updatedAt = iso(baseMs())
    const resizeRequest = {
      longTargetBase: '2',
      shortTargetBase: '3.5',
      requestedAt: updatedAt,
    }
    const nextCheckAt = '2031-02-03T04:05:06.789Z'
    const engineState = {
      op: null,
      seq: 2,
      fundingSince: updatedAt,
      fundingBelowSince: nextCheckAt,
    }
    const updated = await store().tasks.update(t.id, {
      status: 'running',
      longSize: '1.2300',
      error: null,
      resizeRequest,
      autoClose: false,
      nextCheckAt,
      engineState,
      updatedAt,
    })
    const expected: TaskRecord = {
      ...t,
      status: 'running',
      longSize: '1.23',
      error: null,
      resizeRequest,
      autoClose: false,
      nextCheckAt,
      engineState,
      updatedAt,
    }
    expect(updated).toEqual(expected)
    expect(await store().tasks.get(t.id)).toEqual(expected)
    const cleared = await store().tasks.update(t.id, {
      resizeRequest: null,
      nextCheckAt: null,
      engineState: null,
      updatedAt,
    })
    expect(cleared).toEqual({
      ...expected,
      resizeRequest: null,
      nextCheckAt: null,
      engineState: null,
    })
    expect(
      await store().tasks.update(randomUUID(), { status: 'failed', updatedAt }),
    ).toBeUndefined()
  })

  test('tasks: update status guard', async () => {
    const t = task({ status: 'running' })
    await store().tasks.insert(t)
    const updatedAt = iso(baseMs())
    const tasks = store().tasks
    expect(
      await tasks.update(
        t.id,
        { status: 'closing', updatedAt },
        {
          status: ['pending'],
        },
      ),
    ).toBeUndefined()
    expect(
      await tasks.update(
        t.id,
        { status: 'closing', updatedAt },
        { status: [] },
      ),
    ).toBeUndefined()
    expect(await tasks.get(t.id)).toEqual(t)
    const ok = await tasks.update(
      t.id,
      { status: 'closing', updatedAt },
      {
        status: ['pending', 'running'],
      },
    )
    expect(ok?.status).toBe('closing')
    expect((await tasks.get(t.id))?.status).toBe('closing')
  })

  test('tasks: update idle guard (no operation in flight)', async () => {
    const tasks = store().tasks
    const updatedAt = iso(baseMs())
    const cancel = { status: 'cancelled' as const, updatedAt }
    const guard = { status: ['pending' as const], idle: true }
    const op = {
      kind: 'open' as const,
      seq: 1,
      startedAt: updatedAt,
      legs: {},
    }
    const busy = task({ engineState: { ...EMPTY_ENGINE_STATE, op, seq: 1 } })
    await tasks.insert(busy)
    expect(await tasks.update(busy.id, cancel, guard)).toBeUndefined()
    expect(await tasks.get(busy.id)).toEqual(busy)
    // without the guard, the same write lands
    expect((await tasks.update(busy.id, cancel))?.status).toBe('cancelled')
    for (const engineState of [
      null,
      EMPTY_ENGINE_STATE,
      { ...EMPTY_ENGINE_STATE, seq: 3 },
    ]) {
      const idle = task({ engineState })
      await tasks.insert(idle)
      expect(
        (await tasks.update(idle.id, cancel, guard))?.status,
        JSON.stringify(engineState),
      ).toBe('cancelled')
    }
  })

  test('tasks: update unbooked guard (no leg holds a booked size), with idle', async () => {
    const tasks = store().tasks
    const updatedAt = iso(baseMs())
    const cancel = { status: 'cancelled' as const, updatedAt }
    const guard = {
      status: ['pending' as const],
      idle: true,
      unbooked: true,
    }
    for (const [longSize, shortSize] of [
      ['0.02', null],
      [null, '1.5'],
      ['0.02', '0'],
    ] as const) {
      const filled = task({
        status: 'pending',
        longSize,
        shortSize,
        engineState: EMPTY_ENGINE_STATE,
      })
      await tasks.insert(filled)
      expect(
        await tasks.update(filled.id, cancel, guard),
        `${longSize}/${shortSize}`,
      ).toBeUndefined()
      expect(await tasks.get(filled.id)).toEqual(filled)
    }
    for (const [longSize, shortSize] of [
      [null, null],
      ['0', '0'],
      ['0', null],
    ] as const) {
      const empty = task({
        status: 'pending',
        longSize,
        shortSize,
        engineState: EMPTY_ENGINE_STATE,
      })
      await tasks.insert(empty)
      expect(
        (await tasks.update(empty.id, cancel, guard))?.status,
        `${longSize}/${shortSize}`,
      ).toBe('cancelled')
    }
  })

  test('tasks: update fence guard', async () => {
    const t = task({ fence: 3 })
    await store().tasks.insert(t)
    const updatedAt = iso(baseMs())
    const lease = {
      leaseOwner: 'w2',
      leaseExpiresAt: iso(baseMs()),
      fence: 4,
      updatedAt,
    }
    const tasks = store().tasks
    expect(await tasks.update(t.id, lease, { fence: 2 })).toBeUndefined()
    expect(
      await tasks.update(t.id, lease, { fence: 3, status: ['running'] }),
    ).toBeUndefined()
    expect(await tasks.get(t.id)).toEqual(t)
    expect(
      await tasks.update(t.id, lease, { fence: 3, status: ['pending'] }),
    ).toEqual({ ...t, ...lease })
    expect(
      await tasks.update(t.id, { error: 'stale', updatedAt }, { fence: 3 }),
    ).toBeUndefined()
    expect((await tasks.get(t.id))?.error).toBeNull()
  })

  test('tasks: concurrent fenced writers never share a token', async () => {
    const t = task()
    await store().tasks.insert(t)
    const claims = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        store().transaction(async (tx) => {
          const seen = await tx.tasks.get(t.id)
          if (!seen) throw new Error('task vanished')
          const won = await tx.tasks.update(
            t.id,
            {
              leaseOwner: `w${i}`,
              fence: seen.fence + 1,
              updatedAt: iso(baseMs()),
            },
            { fence: seen.fence },
          )
          return won?.fence
        }),
      ),
    )
    const won = claims.filter((f): f is number => f !== undefined)
    expect(won.length).toBeGreaterThan(0)
    expect(new Set(won).size).toBe(won.length)
    expect((await store().tasks.get(t.id))?.fence).toBe(won.length)
  })
}

function taskListTests(store: GetStore) {
  const filter = (
    owner: string,
    over: Partial<ListFilter> = {},
  ): ListFilter => ({
    owner,
    venues: ALL_VENUES,
    limit: 20,
    ...over,
  })

  test('tasks: list filters owner and requires both venues in the set', async () => {
    const owner = newOwner()
    const t = baseMs()
    const hlAster = task({ owner, updatedAt: iso(t + 1) })
    const hlLighter = task({
      owner,
      shortVenue: 'lighter',
      updatedAt: iso(t + 2),
    })
    const lighterAster = task({
      owner,
      longVenue: 'lighter',
      updatedAt: iso(t + 3),
    })
    for (const r of [
      hlAster,
      hlLighter,
      lighterAster,
      task({ updatedAt: iso(t) }),
    ]) {
      await store().tasks.insert(r)
    }
    const list = (venues: readonly VenueId[]) =>
      store().tasks.list(filter(owner, { venues }))
    expect(await list(ALL_VENUES)).toEqual([lighterAster, hlLighter, hlAster])
    expect(ids(await list(['hl', 'aster']))).toEqual([hlAster.id])
    expect(ids(await list(['hl', 'lighter']))).toEqual([hlLighter.id])
    expect(ids(await list(['aster', 'lighter']))).toEqual([lighterAster.id])
    expect(await list(['hl'])).toEqual([])
    expect(await list([])).toEqual([])
  })

  test('tasks: list by status and limit, newest first', async () => {
    const owner = newOwner()
    const t = baseMs()
    const rows = Array.from({ length: 6 }, (_, i) =>
      task({
        owner,
        status: i % 2 === 0 ? 'running' : 'pending',
        updatedAt: iso(t + i * 1000),
      }),
    )
    for (const r of rows) await store().tasks.insert(r)
    const running = newestFirst(rows.filter((r) => r.status === 'running'))
    expect(
      ids(await store().tasks.list(filter(owner, { status: 'running' }))),
    ).toEqual(ids(running))
    expect(ids(await store().tasks.list(filter(owner, { limit: 4 })))).toEqual(
      ids(newestFirst(rows)).slice(0, 4),
    )
    expect(
      await store().tasks.list(filter(owner, { status: 'closed' })),
    ).toEqual([])
  })

  test('tasks: list pages strictly after a position, ties by id desc', async () => {
    const owner = newOwner()
    const t = baseMs()
    // three rows share one updatedAt, so the id breaks the tie
    const rows = [0, 1, 1, 1, 2, 3, 3].map((k) =>
      task({ owner, updatedAt: iso(t + k) }),
    )
    for (const r of rows) await store().tasks.insert(r)
    const expected = newestFirst(rows)
    const seen: TaskRecord[] = []
    let after: ListFilter['after']
    for (;;) {
      const page = await store().tasks.list(filter(owner, { limit: 2, after }))
      if (page.length === 0) break
      expect(page.length).toBeLessThanOrEqual(2)
      seen.push(...page)
      const last = page[page.length - 1]
      if (!last) break
      after = { updatedAt: last.updatedAt, id: last.id }
    }
    expect(ids(seen)).toEqual(ids(expected))
    const middle = expected[3]
    if (!middle) throw new Error('fixture')
    const rest = await store().tasks.list(
      filter(owner, { after: { updatedAt: middle.updatedAt, id: middle.id } }),
    )
    expect(ids(rest)).toEqual(ids(expected.slice(4)))
  })

  test('tasks: sub-millisecond writes read back as milliseconds and page', async () => {
    const owner = newOwner()
    const a = task({ owner, updatedAt: '2031-05-06T07:08:09.123100Z' })
    const b = task({ owner, updatedAt: '2031-05-06T07:08:09.123900Z' })
    await store().tasks.insert(a)
    await store().tasks.insert(b)
    const rows = await store().tasks.list(filter(owner))
    expect(rows.map((r) => r.updatedAt)).toEqual([
      '2031-05-06T07:08:09.123Z',
      '2031-05-06T07:08:09.123Z',
    ])
    const [first, second] = rows
    if (!first || !second) throw new Error('expected two rows')
    const next = await store().tasks.list(
      filter(owner, { after: { updatedAt: first.updatedAt, id: first.id } }),
    )
    expect(ids(next)).toEqual([second.id])
  })

  test('tasks: list updatedSince honours six fractional digits', async () => {
    const owner = newOwner()
    const a = task({ owner, updatedAt: '2031-05-06T07:08:09.123Z' })
    const b = task({ owner, updatedAt: '2031-05-06T07:08:09.124Z' })
    await store().tasks.insert(a)
    await store().tasks.insert(b)
    const since = async (updatedSince: string) =>
      ids(await store().tasks.list(filter(owner, { updatedSince })))
    expect(await since('2031-05-06T07:08:09.122999Z')).toEqual([b.id, a.id])
    expect(await since('2031-05-06T07:08:09.123000Z')).toEqual([b.id, a.id])
    expect(await since('2031-05-06T07:08:09.123001Z')).toEqual([b.id])
    expect(await since('2031-05-06T07:08:09.1239Z')).toEqual([b.id])
    expect(await since('2031-05-06T07:08:09.124Z')).toEqual([b.id])
    expect(await since('2031-05-06T07:08:09.124001Z')).toEqual([])
    expect(
      ids(
        await store().tasks.list(
          filter(owner, {
            updatedSince: '2031-05-06T07:08:09.123000Z',
            status: 'pending',
            after: { updatedAt: b.updatedAt, id: b.id },
          }),
        ),
      ),
    ).toEqual([a.id])
  })
}

// ---------------------------------------------------------------- orders

function orderTests(store: GetStore) {
  test('orders: insert and get round-trip every field', async () => {
    const at = baseMs()
    const full = order({
      orderType: 'market',
      sizeBase: '1.50',
      requestedLimitPrice: null,
      limitPrice: '2600.00',
      timeInForce: 'ioc',
      reduceOnly: true,
      status: 'filled',
      requestedBase: '1.5',
      filledBase: '1.5000',
      averagePrice: '2555.25',
      venueOrderId: '98765',
      venueStatus: 'FILLED',
      error: 'none',
      cancelRequestedAt: iso(at + 1),
      submittedAt: iso(at + 2),
      sendBy: iso(at + 6),
      observedAt: iso(at + 3),
      resolution: {
        status: 'filled',
        filledBase: '1.5',
        averagePrice: '2555.25',
        evidence: 'venue fill history screenshot',
        confirmNoOpenOrder: true,
        confirmWorkersStopped: true,
        prior: { status: 'unknown', filledBase: '0', averagePrice: null },
        actorKeyId: randomUUID(),
        resolvedAt: iso(at + 4),
      },
      leaseOwner: 'w1',
      leaseExpiresAt: iso(at + 5),
      fence: 2,
      nextCheckAt: iso(at + 6),
    })
    const bare = order()
    await store().orders.insert(full)
    await store().orders.insert(bare)
    expect(await store().orders.get(full.id)).toEqual({
      ...full,
      sizeBase: '1.5',
      limitPrice: '2600',
      filledBase: '1.5',
    })
    expect(await store().orders.get(bare.id)).toEqual(bare)
    expect(await store().orders.get(randomUUID())).toBeUndefined()
  })

  test('orders: clientOrderId is unique', async () => {
    const a = order()
    await store().orders.insert(a)
    await expect(
      store().orders.insert(order({ clientOrderId: a.clientOrderId })),
    ).rejects.toThrow()
  })

  test('orders: update patch and guards', async () => {
    const o = order({ fence: 1 })
    await store().orders.insert(o)
    const updatedAt = iso(baseMs())
    const orders = store().orders
    const patch = {
      status: 'open' as const,
      venueOrderId: 'v-1',
      filledBase: '0.10',
      updatedAt,
    }
    expect(
      await orders.update(o.id, patch, { status: ['open'] }),
    ).toBeUndefined()
    expect(await orders.update(o.id, patch, { fence: 0 })).toBeUndefined()
    expect(await orders.get(o.id)).toEqual(o)
    const expected = { ...o, ...patch, filledBase: '0.1' }
    expect(
      await orders.update(o.id, patch, { status: ['pending'], fence: 1 }),
    ).toEqual(expected)
    expect(await orders.get(o.id)).toEqual(expected)
    expect(
      await orders.update(randomUUID(), patch, { fence: 1 }),
    ).toBeUndefined()
    const nextCheckAt = '2031-02-03T04:05:06.789Z'
    expect(await orders.update(o.id, { nextCheckAt, updatedAt })).toEqual({
      ...expected,
      nextCheckAt,
    })
    expect(await orders.update(o.id, { nextCheckAt: null, updatedAt })).toEqual(
      expected,
    )
  })

  test('orders: list by owner, venue set, status, updatedSince, paging', async () => {
    const owner = newOwner()
    const t = baseMs()
    const rows = (['hl', 'aster', 'lighter', 'hl', 'hl'] as const).map(
      (venue, i) =>
        order({
          owner,
          venue,
          status: i === 4 ? 'open' : 'pending',
          updatedAt: iso(t + i),
        }),
    )
    for (const r of [...rows, order({ updatedAt: iso(t) })]) {
      await store().orders.insert(r)
    }
    const list = (over: Partial<ListFilter>) =>
      store().orders.list({ owner, venues: ALL_VENUES, limit: 20, ...over })
    expect(await list({})).toEqual(newestFirst(rows))
    expect(ids(await list({ venues: ['hl'] }))).toEqual(
      ids(newestFirst(rows.filter((r) => r.venue === 'hl'))),
    )
    expect(ids(await list({ venues: ['hl'], status: 'open' }))).toEqual([
      rows[4]?.id,
    ])
    expect(ids(await list({ updatedSince: iso(t + 3) }))).toEqual([
      rows[4]?.id,
      rows[3]?.id,
    ])
    const first = await list({ limit: 2 })
    const last = first[1]
    if (!last) throw new Error('expected two rows')
    expect(
      ids(await list({ after: { updatedAt: last.updatedAt, id: last.id } })),
    ).toEqual(ids(newestFirst(rows).slice(2)))
  })
}

// ---------------------------------------------------------------- active counts

function activeCountTests(store: GetStore) {
  const taskStatuses: Record<TaskStatus, boolean> = {
    pending: true,
    running: true,
    resizing: true,
    closing: true,
    closed: false,
    cancelled: false,
    failed: false,
  }
  const orderStatuses: Record<PerpOrderStatus, boolean> = {
    pending: true,
    submitting: true,
    open: true,
    partially_filled: true,
    unknown: true,
    filled: false,
    cancelled: false,
    rejected: false,
    expired: false,
  }

  for (const [status, active] of Object.entries(taskStatuses)) {
    test(`tasks: countActiveByOwner ${active ? 'counts' : 'skips'} ${status}`, async () => {
      const owner = newOwner()
      const tasks = store().tasks
      expect(await tasks.countActiveByOwner(owner)).toBe(0)
      await tasks.insert(task({ owner, status: status as TaskStatus }))
      // another owner's active task never counts
      await tasks.insert(task({ status: 'running' }))
      expect(await tasks.countActiveByOwner(owner)).toBe(active ? 1 : 0)
      await tasks.insert(task({ owner, status: status as TaskStatus }))
      expect(await tasks.countActiveByOwner(owner)).toBe(active ? 2 : 0)
    })
  }

  test('tasks: countActiveByOwner follows status changes', async () => {
    const owner = newOwner()
    const t = task({ owner, status: 'running' })
    await store().tasks.insert(t)
    await store().tasks.insert(task({ owner, status: 'closed' }))
    expect(await store().tasks.countActiveByOwner(owner)).toBe(1)
    await store().tasks.update(t.id, {
      status: 'closed',
      updatedAt: iso(baseMs()),
    })
    expect(await store().tasks.countActiveByOwner(owner)).toBe(0)
  })

  test('tasks: listOnMarket lists the owner’s active tasks with a leg on one venue market, and ended ones that left a part there', async () => {
    const owner = newOwner()
    const tasks = store().tasks
    const on = { owner, venue: 'aster' as const, market: 'BTCUSDT' }
    // task(): long hl BTC, short aster BTCUSDT
    const keep = [
      task({ owner, status: 'running' }),
      task({ owner, status: 'closing' }),
      task({ owner, status: 'pending' }),
      task({
        owner,
        status: 'running',
        longVenue: 'aster',
        longMarket: 'BTCUSDT',
        shortVenue: 'lighter',
        shortMarket: 'BTC',
      }),
    ]
    // what a close left at the venue is still held there: the ended task
    // that left it is a holder
    const leftShort = {
      ...EMPTY_ENGINE_STATE,
      leftAtVenue: { short: '0.0002' },
    }
    keep.push(
      task({ owner, status: 'closed', engineState: leftShort }),
      task({ owner, status: 'failed', engineState: leftShort }),
    )
    const skip = [
      task({ owner, status: 'closed' }),
      task({ owner, status: 'failed' }),
      task({
        owner,
        status: 'closed',
        shortMarket: 'ETHUSDT',
        engineState: leftShort,
      }),
      task({ owner, status: 'running', shortMarket: 'ETHUSDT' }),
      task({ owner, status: 'running', shortVenue: 'lighter' }),
      task({ status: 'running' }),
    ]
    for (const t of [...keep, ...skip]) await tasks.insert(t)
    const listed = (await tasks.listOnMarket(on)).map((t) => t.id)
    expect(listed).toEqual(keep.map((t) => t.id).sort())
  })

  for (const [status, active] of Object.entries(orderStatuses)) {
    test(`orders: countActiveByOwner ${active ? 'counts' : 'skips'} ${status}`, async () => {
      const owner = newOwner()
      const orders = store().orders
      expect(await orders.countActiveByOwner(owner)).toBe(0)
      await orders.insert(order({ owner, status: status as PerpOrderStatus }))
      await orders.insert(order({ status: 'open' }))
      expect(await orders.countActiveByOwner(owner)).toBe(active ? 1 : 0)
      await orders.insert(order({ owner, status: status as PerpOrderStatus }))
      expect(await orders.countActiveByOwner(owner)).toBe(active ? 2 : 0)
    })
  }

  test('orders: countActiveByOwner with exceptVenue skips that venue only', async () => {
    const owner = newOwner()
    const orders = store().orders
    await orders.insert(order({ owner, venue: 'hl', status: 'open' }))
    await orders.insert(order({ owner, venue: 'hl', status: 'pending' }))
    await orders.insert(order({ owner, venue: 'aster', status: 'unknown' }))
    await orders.insert(order({ owner, venue: 'aster', status: 'filled' }))
    expect(await orders.countActiveByOwner(owner)).toBe(3)
    expect(await orders.countActiveByOwner(owner, 'hl')).toBe(1)
    expect(await orders.countActiveByOwner(owner, 'aster')).toBe(2)
    expect(await orders.countActiveByOwner(owner, 'lighter')).toBe(3)
  })

  test('orders: listOnMarket lists the owner’s orders on one venue market that filled or may still fill', async () => {
    const owner = newOwner()
    const orders = store().orders
    const on = { owner, venue: 'hl' as const, market: 'ETH' }
    const listed = async () =>
      (await orders.listOnMarket(on)).map((o) => o.id).sort()
    expect(await listed()).toEqual([])
    const keep = [
      order({ ...on, status: 'pending' }),
      order({ ...on, status: 'open' }),
      order({ ...on, status: 'unknown' }),
      order({ ...on, status: 'filled', filledBase: '0.5' }),
      order({ ...on, status: 'cancelled', filledBase: '0.25' }),
    ]
    const skip = [
      // final with nothing filled
      order({ ...on, status: 'cancelled', filledBase: '0' }),
      order({ ...on, status: 'rejected', filledBase: '0' }),
      // another market, venue or owner
      order({ ...on, market: 'BTC', status: 'open' }),
      order({ ...on, venue: 'aster', status: 'open' }),
      order({ ...on, owner: newOwner(), status: 'open' }),
    ]
    for (const o of [...keep, ...skip]) await orders.insert(o)
    expect(await listed()).toEqual(keep.map((o) => o.id).sort())
  })

  test('orders: listRestingMarkets names each owner, venue and market where a limit order may rest', async () => {
    const owner = newOwner()
    const other = newOwner()
    const orders = store().orders
    const mine = () =>
      orders.listRestingMarkets().then((rows) =>
        rows
          .filter((r) => r.owner === owner || r.owner === other)
          .map(
            (r) =>
              `${r.owner === owner ? 'me' : 'other'}|${r.venue}|${r.market}`,
          )
          .sort(),
      )
    expect(await mine()).toEqual([])
    const resting = order({ owner, venue: 'hl', market: 'ETH', status: 'open' })
    await orders.insert(resting)
    // the same market twice is named once
    await orders.insert(
      order({ owner, venue: 'hl', market: 'ETH', status: 'partially_filled' }),
    )
    await orders.insert(
      order({
        owner,
        venue: 'aster',
        market: 'BTCUSDT',
        status: 'unknown',
        timeInForce: 'post_only',
      }),
    )
    await orders.insert(
      order({ owner, venue: 'lighter', market: 'SOL', status: 'submitting' }),
    )
    await orders.insert(
      order({ owner: other, venue: 'hl', market: 'BTC', status: 'open' }),
    )
    // never resting: queued, final, IOC, market orders
    await orders.insert(order({ owner, market: 'SOL', status: 'pending' }))
    await orders.insert(order({ owner, market: 'SOL', status: 'cancelled' }))
    await orders.insert(
      order({ owner, market: 'SOL', status: 'open', timeInForce: 'ioc' }),
    )
    await orders.insert(
      order({
        owner,
        market: 'SOL',
        status: 'open',
        orderType: 'market',
        requestedLimitPrice: null,
      }),
    )
    expect(await mine()).toEqual([
      'me|aster|BTCUSDT',
      'me|hl|ETH',
      'me|lighter|SOL',
      'other|hl|BTC',
    ])
    await orders.update(resting.id, {
      status: 'filled',
      updatedAt: iso(baseMs()),
    })
    // the other ETH order still rests
    expect(await mine()).toContain('me|hl|ETH')
  })

  test('orders: countActiveByOwner inside a transaction sees its writes', async () => {
    const owner = newOwner()
    await expect(
      store().transaction(async (tx) => {
        await tx.orders.insert(order({ owner, status: 'submitting' }))
        expect(await tx.orders.countActiveByOwner(owner)).toBe(1)
        throw new Error('undo')
      }),
    ).rejects.toThrow('undo')
    expect(await store().orders.countActiveByOwner(owner)).toBe(0)
  })
}

// ---------------------------------------------------------------- binding batches

function bindingBatchTests(store: GetStore, databases: StoreContractDatabases) {
  test('bindingBatches: insert, get and getByNonce round-trip every field', async () => {
    const at = baseMs()
    const signed = venueEntry()
    const requestId = signed.requests[0]?.requestId ?? 'missing'
    const full = batch({
      status: 'partial_success',
      venues: [
        {
          ...signed,
          target: {
            venue: 'lighter',
            accountIndex: 281474976710655,
            rebind: true,
          },
          status: 'bound',
          code: null,
          retryable: false,
          signatures: {
            [requestId]: `0x${randomBytes(65).toString('hex')}`,
            'other-request': '0xabc',
          },
          credentialRef: '0x1234|7',
          credentialCiphertext: 'v1.iv.tag.cipher',
          context: { nonce: '18446744073709551615', keyIndex: '3' },
        },
        venueEntry({
          target: { venue: 'aster' },
          status: 'failed',
          sessionId: null,
          code: 'venue_rejected',
          retryable: true,
          requests: [],
        }),
        venueEntry({ target: { venue: 'hl' }, status: 'already_bound' }),
      ],
      leaseOwner: 'w1',
      leaseExpiresAt: iso(at + 5),
      fence: 3,
      nextCheckAt: iso(at + 6),
    })
    const bare = batch()
    await store().bindingBatches.insert(full)
    await store().bindingBatches.insert(bare)
    const read = await store().bindingBatches.get(full.id)
    expect(read).toEqual(full)
    // exactly, to the key order inside the JSON payloads
    expect(JSON.stringify(read?.venues)).toBe(JSON.stringify(full.venues))
    expect(await store().bindingBatches.get(bare.id)).toEqual(bare)
    expect(
      await store().bindingBatches.getByNonce(full.owner, full.nonce),
    ).toEqual(full)
    expect(
      await store().bindingBatches.getByNonce(bare.owner, bare.nonce),
    ).toEqual(bare)
    expect(await store().bindingBatches.get(randomUUID())).toBeUndefined()
    expect(
      await store().bindingBatches.getByNonce(full.owner, bare.nonce),
    ).toBeUndefined()
    expect(
      await store().bindingBatches.getByNonce(bare.owner, full.nonce),
    ).toBeUndefined()
    await expect(store().bindingBatches.insert(bare)).rejects.toThrow()
  })

  test('bindingBatches: (owner, nonce) is unique; other owners may reuse it', async () => {
    const first = batch()
    await store().bindingBatches.insert(first)
    const again = batch({ owner: first.owner, nonce: first.nonce })
    await expect(store().bindingBatches.insert(again)).rejects.toThrow()
    expect(await store().bindingBatches.get(again.id)).toBeUndefined()
    expect(
      await store().bindingBatches.getByNonce(first.owner, first.nonce),
    ).toEqual(first)
    const otherOwner = batch({ nonce: first.nonce })
    await store().bindingBatches.insert(otherOwner)
    const otherNonce = batch({ owner: first.owner })
    await store().bindingBatches.insert(otherNonce)
    expect(
      await store().bindingBatches.getByNonce(otherOwner.owner, first.nonce),
    ).toEqual(otherOwner)
    expect(
      await store().bindingBatches.getByNonce(first.owner, otherNonce.nonce),
    ).toEqual(otherNonce)
  })

  test('bindingBatches: concurrent inserts of one (owner, nonce), exactly one wins', async () => {
    const owner = newOwner()
    const nonce = randomUUID()
    const racers = Array.from({ length: 10 }, () => batch({ owner, nonce }))
    const results = await Promise.allSettled(
      racers.map((b, i) =>
        i % 2 === 0
          ? store().bindingBatches.insert(b)
          : store().transaction((tx) => tx.bindingBatches.insert(b)),
      ),
    )
    const won = racers.filter((_, i) => results[i]?.status === 'fulfilled')
    expect(won).toHaveLength(1)
    expect(await store().bindingBatches.getByNonce(owner, nonce)).toEqual(
      won[0],
    )
    for (const b of racers) {
      if (b !== won[0]) {
        expect(await store().bindingBatches.get(b.id)).toBeUndefined()
      }
    }
  })

  if (databases.shared) {
    test('bindingBatches: two stores racing one (owner, nonce), exactly one wins', () =>
      withOwnDatabase(databases, async (a, peer) => {
        if (peer === undefined) throw new Error('shared databases need a peer')
        const b = await peer()
        const owner = newOwner()
        const nonce = randomUUID()
        const first = batch({ owner, nonce })
        const second = batch({ owner, nonce })
        // b inserts while a's insert of the same pair is not yet committed:
        // b waits for a, then fails on the committed row
        let aInserted: () => void = () => undefined
        const inserted = new Promise<void>((resolve) => {
          aInserted = resolve
        })
        let bSettledAt: 'while a was open' | 'once a committed' | undefined
        // set as a's transaction asks to commit: b's answer and a's commit
        // answer arrive on two connections, in either order
        let aCommitting = false
        const racing = inserted.then(() =>
          b.bindingBatches.insert(second).finally(() => {
            bSettledAt = aCommitting ? 'once a committed' : 'while a was open'
          }),
        )
        // b's refusal may come before a's commit answer: handled from now
        // on (asserted below), never an unhandled rejection of the run
        racing.catch(() => undefined)
        await a.transaction(async (tx) => {
          await tx.bindingBatches.insert(first)
          aInserted()
          await sleep(200)
          aCommitting = true
        })
        await expect(racing).rejects.toThrow()
        expect(bSettledAt).toBe('once a committed')
        expect(await b.bindingBatches.getByNonce(owner, nonce)).toEqual(first)
        expect(await a.bindingBatches.get(second.id)).toBeUndefined()
      }))
  }

  test('bindingBatches: a rolled-back insert frees its nonce', async () => {
    const b = batch()
    await expect(
      store().transaction(async (tx) => {
        await tx.bindingBatches.insert(b)
        expect(await store().bindingBatches.get(b.id)).toEqual(b)
        throw new Error('undo')
      }),
    ).rejects.toThrow('undo')
    expect(await store().bindingBatches.get(b.id)).toBeUndefined()
    await store().bindingBatches.insert(
      batch({ owner: b.owner, nonce: b.nonce }),
    )
  })

  test('bindingBatches: update patch and guards', async () => {
    const b = batch({ fence: 2 })
    await store().bindingBatches.insert(b)
    const batches = store().bindingBatches
    const updatedAt = iso(baseMs())
    const [entry] = b.venues
    if (!entry) throw new Error('fixture')
    const requestId = entry.requests[0]?.requestId ?? 'missing'
    const patch = {
      status: 'processing' as const,
      venues: [
        {
          ...entry,
          status: 'queued' as const,
          signatures: { [requestId]: '0xsig' },
          context: { nonce: '5' },
        },
      ],
      nextCheckAt: iso(baseMs()),
      updatedAt,
    }
    expect(
      await batches.update(b.id, patch, { status: ['processing'] }),
    ).toBeUndefined()
    expect(await batches.update(b.id, patch, { status: [] })).toBeUndefined()
    expect(await batches.update(b.id, patch, { fence: 1 })).toBeUndefined()
    expect(
      await batches.update(b.id, patch, {
        fence: 2,
        status: ['bound', 'failed'],
      }),
    ).toBeUndefined()
    expect(await batches.get(b.id)).toEqual(b)
    const expected: BindingBatchRecord = { ...b, ...patch }
    expect(
      await batches.update(b.id, patch, {
        status: ['awaiting_signatures'],
        fence: 2,
      }),
    ).toEqual(expected)
    expect(await batches.get(b.id)).toEqual(expected)
    expect(await batches.getByNonce(b.owner, b.nonce)).toEqual(expected)
    const cleared = await batches.update(b.id, {
      nextCheckAt: null,
      leaseOwner: null,
      expiresAt: iso(baseMs()),
      updatedAt,
    })
    expect(cleared).toEqual({
      ...expected,
      nextCheckAt: null,
      leaseOwner: null,
      expiresAt: cleared?.expiresAt,
    })
    expect(cleared?.expiresAt).not.toBe(expected.expiresAt)
    expect(
      await batches.update(randomUUID(), { status: 'failed', updatedAt }),
    ).toBeUndefined()
  })

  test('bindingBatches: update never changes the identity columns', async () => {
    const b = batch()
    await store().bindingBatches.insert(b)
    const updatedAt = iso(baseMs())
    const sneaky = {
      id: randomUUID(),
      owner: newOwner(),
      nonce: 'other',
      requestHash: 'other',
      createdAt: updatedAt,
      status: 'failed' as const,
      updatedAt,
    }
    expect(await store().bindingBatches.update(b.id, sneaky)).toEqual({
      ...b,
      status: 'failed',
      updatedAt,
    })
  })

  test('bindingBatches: countCreatedSince counts the owner within the window', async () => {
    const owner = newOwner()
    const t = baseMs()
    const batches = store().bindingBatches
    const since = (ms: number | string) =>
      batches.countCreatedSince(owner, typeof ms === 'string' ? ms : iso(ms))
    expect(await since(t - 600_000)).toBe(0)
    for (const offset of [-600_001, -600_000, -1, 0, 5]) {
      await batches.insert(batch({ owner, createdAt: iso(t + offset) }))
    }
    // another owner's batch never counts
    await batches.insert(batch({ createdAt: iso(t) }))
    expect(await since(t - 700_000)).toBe(5)
    expect(await since(t - 600_000)).toBe(4)
    expect(await since(t - 1)).toBe(3)
    expect(await since(t)).toBe(2)
    expect(await since(t + 5)).toBe(1)
    expect(await since(t + 6)).toBe(0)
    // the bound keeps six fractional digits
    const [start] = iso(t).split('.')
    const ms = String(t % 1000).padStart(3, '0')
    expect(await since(`${start}.${ms}001Z`)).toBe(1)
    expect(await since(`${start}.${ms}000Z`)).toBe(2)
    expect(await batches.countCreatedSince(newOwner(), iso(t - 700_000))).toBe(
      0,
    )
  })
}

// ---------------------------------------------------------------- idempotency

function idempotencyTests(store: GetStore) {
  test('idempotency: first claim inserts, later claims return it', async () => {
    const rec = idem()
    expect(await store().idempotency.claim(rec)).toEqual({ inserted: true })
    expect(await store().idempotency.get(rec.scope, rec.key)).toEqual(rec)
    const again = idem({ scope: rec.scope, key: rec.key, body: '{"other":1}' })
    expect(await store().idempotency.claim(again)).toEqual({
      inserted: false,
      existing: rec,
    })
    const otherScope = idem({ key: rec.key })
    expect(await store().idempotency.claim(otherScope)).toEqual({
      inserted: true,
    })
    expect(
      await store().idempotency.get(rec.scope, randomUUID()),
    ).toBeUndefined()
  })

  test('idempotency: a rolled-back claim is not kept', async () => {
    const rec = idem()
    await expect(
      store().transaction(async (tx) => {
        expect(await tx.idempotency.claim(rec)).toEqual({ inserted: true })
        throw new Error('command failed')
      }),
    ).rejects.toThrow('command failed')
    expect(await store().idempotency.get(rec.scope, rec.key)).toBeUndefined()
    expect(await store().idempotency.claim(rec)).toEqual({ inserted: true })
  })

  test('idempotency: 20 concurrent claims run the command once', async () => {
    const owner = newOwner()
    const scope = `owner:${owner}`
    const key = randomUUID()
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () =>
        store().transaction(async (tx) => {
          const t = task({ owner })
          const body = JSON.stringify({ taskId: t.id, status: 'pending' })
          const claim = await tx.idempotency.claim(idem({ scope, key, body }))
          if (!claim.inserted) return { ran: false, body: claim.existing.body }
          await tx.tasks.insert(t)
          return { ran: true, body }
        }),
      ),
    )
    const ran = outcomes.filter((o) => o.ran)
    expect(ran).toHaveLength(1)
    const winner = ran[0]?.body
    expect(outcomes.every((o) => o.body === winner)).toBe(true)
    const tasks = await store().tasks.list({
      owner,
      venues: ALL_VENUES,
      limit: 20,
    })
    expect(tasks).toHaveLength(1)
    expect(winner).toContain(tasks[0]?.id)
  })
}

// ---------------------------------------------------------------- request logs

function requestLogTests(store: GetStore) {
  test('requestLogs: insert prunes to keep per key and family', async () => {
    const keyId = randomUUID()
    const t = baseMs()
    const strategy = Array.from({ length: 7 }, (_, i) =>
      requestLog(keyId, 'strategy', t + i * 10, {
        replayed: i === 6,
        taskId: i === 5 ? randomUUID() : null,
        errorCode: i === 4 ? 'conflict' : null,
        httpStatus: i === 4 ? 409 : 202,
      }),
    )
    const perp = [0, 1].map((i) =>
      requestLog(keyId, 'perp', t + i, { orderId: randomUUID() }),
    )
    const otherKey = requestLog(randomUUID(), 'strategy', t)
    for (const log of [...perp, otherKey]) {
      await store().requestLogs.insert([log], 5)
    }
    for (const log of strategy) await store().requestLogs.insert([log], 5)
    const newest = [...strategy].reverse()
    expect(await store().requestLogs.list(keyId, 'strategy', 100)).toEqual(
      newest.slice(0, 5),
    )
    expect(ids(await store().requestLogs.list(keyId, 'strategy', 3))).toEqual(
      ids(newest.slice(0, 3)),
    )
    expect(await store().requestLogs.list(keyId, 'perp', 100)).toEqual([
      perp[1],
      perp[0],
    ])
    expect(
      await store().requestLogs.list(otherKey.apiKeyId, 'strategy', 100),
    ).toEqual([otherKey])
  })

  test('requestLogs: a batch keeps the newest `keep` of each key and family it touches', async () => {
    const [a, b] = [randomUUID(), randomUUID()]
    const t = baseMs()
    const batch = [
      ...Array.from({ length: 4 }, (_, i) => requestLog(a, 'perp', t + i)),
      ...Array.from({ length: 3 }, (_, i) => requestLog(b, 'perp', t + i)),
      requestLog(a, 'strategy', t),
    ]
    const older = requestLog(b, 'perp', t - 10)
    await store().requestLogs.insert([older], 10)
    await store().requestLogs.insert(batch, 2)
    const newest = (key: string) =>
      ids(batch.filter((l) => l.apiKeyId === key && l.family === 'perp'))
        .reverse()
        .slice(0, 2)
    expect(ids(await store().requestLogs.list(a, 'perp', 10))).toEqual(
      newest(a),
    )
    expect(ids(await store().requestLogs.list(b, 'perp', 10))).toEqual(
      newest(b),
    )
    expect(await store().requestLogs.list(a, 'strategy', 10)).toHaveLength(1)
    // more rows than one INSERT carries
    const many = Array.from({ length: 1_203 }, (_, i) =>
      requestLog(a, 'perp', t + 100 + i),
    )
    await store().requestLogs.insert(many, 1_500)
    expect(await store().requestLogs.list(a, 'perp', 2_000)).toHaveLength(1_205)
  })

  test('requestLogs: pruning breaks createdAt ties by id', async () => {
    const keyId = randomUUID()
    const t = baseMs()
    const logs = [0, 1, 2].map(() => requestLog(keyId, 'perp', t))
    for (const log of logs) await store().requestLogs.insert([log], 2)
    const kept = ids(logs).sort().reverse().slice(0, 2)
    expect(ids(await store().requestLogs.list(keyId, 'perp', 10))).toEqual(kept)
  })
}

// ---------------------------------------------------------------- venue budgets

function venueBudgetTests(store: GetStore) {
  const bucket = () => `venue:${randomUUID()}`
  /** reserve in bucket `b`: window 1000 ms, ceiling 100 */
  const reserver = (b: string) => (ms: number, w: number) =>
    store().venueBudgets.reserve(b, ms, 1000, 100, w)

  test('venueBudgets: a reservation is stamped no earlier than the latest held, so one read before another took the lock is counted with it', async () => {
    const b = `test:${randomUUID()}`
    const t = baseMs()
    const reserve = reserver(b)
    expect(await reserve(t, 60)).toBe(0)
    // a process that read t + 1000 took the lock first: t's entry is gone
    expect(await reserve(t + 1000, 40)).toBe(0)
    // one that read t + 999 comes after it: stamped t + 1000, in its window
    expect(await reserve(t + 999, 60)).toBe(0)
    // so at t + 1999 that window (t + 999, t + 1999] is full: the first
    // of them leaves at t + 2000, 1 ms on
    expect(await reserve(t + 1999, 1)).toBe(1)
    // waits are from the caller's clock, however far behind
    expect(await reserve(t + 1500, 1)).toBe(500)
    expect(await reserve(t + 2000, 100)).toBe(0)
  })

  test('venueBudgets: weight is reserved up to the ceiling, then the wait until it fits', async () => {
    const b = bucket()
    const t = baseMs()
    const reserve = reserver(b)
    expect(await reserve(t, 60)).toBe(0)
    expect(await reserve(t + 100, 40)).toBe(0)
    // full: the 60 leaves at t + 1000, the 40 at t + 1100
    expect(await reserve(t + 200, 1)).toBe(800)
    expect(await reserve(t + 200, 70)).toBe(900)
    expect(await reserve(t + 1000, 60)).toBe(0)
    expect(await reserve(t + 1000, 1)).toBe(100)
    // heavier than the ceiling can never fit; other buckets are apart
    expect(await reserve(t + 5000, 101)).toBe(Number.POSITIVE_INFINITY)
    expect(
      await store().venueBudgets.reserve(bucket(), t, 1000, 100, 100),
    ).toBe(0)
  })

  test('venueBudgets: weight given back is free at once and leaves the window with its reservation; one aged out gives back nothing', async () => {
    const b = bucket()
    const t = baseMs()
    const reserve = reserver(b)
    expect(await reserve(t, 60)).toBe(0)
    expect(await reserve(t + 100, 40)).toBe(0)
    expect(await reserve(t + 200, 30)).toBe(800)
    // 30 of the first will never be spent
    await store().venueBudgets.release(b, t, 1000, 30)
    expect(await reserve(t + 200, 30)).toBe(0)
    // full again; the give-back leaves with the 60 at t + 1000
    expect(await reserve(t + 300, 1)).toBe(700)
    // a reservation long gone, or a bucket never used: nothing changes
    await store().venueBudgets.release(b, t - 5000, 1000, 50)
    await store().venueBudgets.release(bucket(), t, 1000, 50)
    expect(await reserve(t + 300, 1)).toBe(700)
  })

  test('venueBudgets: concurrent reservations never put more than the ceiling in a window', async () => {
    const b = bucket()
    const t = baseMs()
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        i % 2 === 0
          ? store().venueBudgets.reserve(b, t, 60_000, 50, 5)
          : store().transaction((tx) =>
              tx.venueBudgets.reserve(b, t, 60_000, 50, 5),
            ),
      ),
    )
    expect(results.filter((w) => w === 0)).toHaveLength(10)
    expect(await store().venueBudgets.reserve(b, t + 1, 60_000, 50, 1)).toBe(
      59_999,
    )
  })
}

// ---------------------------------------------------------------- rate limits

function rateLimitTests(store: GetStore) {
  const bucket = () => `test:${randomUUID()}`

  test('rateLimits: remaining counts down, then the limit holds', async () => {
    const b = bucket()
    const t = baseMs()
    const hit = (ms: number) => store().rateLimits.hit(b, ms, 1000, 3)
    expect(await hit(t)).toEqual({ allowed: true, remaining: 2, resetMs: 1000 })
    expect(await hit(t + 10)).toEqual({
      allowed: true,
      remaining: 1,
      resetMs: 990,
    })
    expect(await hit(t + 20)).toEqual({
      allowed: true,
      remaining: 0,
      resetMs: 980,
    })
    expect(await hit(t + 30)).toEqual({
      allowed: false,
      remaining: 0,
      resetMs: 970,
    })
    expect(await hit(t + 999)).toEqual({
      allowed: false,
      remaining: 0,
      resetMs: 1,
    })
    // the window slides: the hit at t leaves at t + 1000
    expect(await hit(t + 1000)).toEqual({
      allowed: true,
      remaining: 0,
      resetMs: 10,
    })
    expect(await hit(t + 1005)).toEqual({
      allowed: false,
      remaining: 0,
      resetMs: 5,
    })
    expect(await hit(t + 1010)).toEqual({
      allowed: true,
      remaining: 0,
      resetMs: 10,
    })
  })

  test('rateLimits: denied hits are not recorded; buckets are separate', async () => {
    const b = bucket()
    const t = baseMs()
    const hit = (ms: number) => store().rateLimits.hit(b, ms, 1000, 2)
    expect((await hit(t)).allowed).toBe(true)
    expect((await hit(t + 1)).allowed).toBe(true)
    for (const ms of [t + 2, t + 3, t + 4])
      expect((await hit(ms)).allowed).toBe(false)
    expect(await hit(t + 1000)).toEqual({
      allowed: true,
      remaining: 0,
      resetMs: 1,
    })
    expect(await store().rateLimits.hit(bucket(), t, 1000, 2)).toEqual({
      allowed: true,
      remaining: 1,
      resetMs: 1000,
    })
    expect(await store().rateLimits.hit(bucket(), t, 500, 0)).toEqual({
      allowed: false,
      remaining: 0,
      resetMs: 500,
    })
  })

  test('rateLimits: concurrent hits never over-admit', async () => {
    const b = bucket()
    const t = baseMs()
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        i % 2 === 0
          ? store().rateLimits.hit(b, t, 60_000, 10)
          : store().transaction((tx) => tx.rateLimits.hit(b, t, 60_000, 10)),
      ),
    )
    const allowed = results.filter((r) => r.allowed)
    expect(allowed).toHaveLength(10)
    expect(allowed.map((r) => r.remaining).sort((x, y) => x - y)).toEqual([
      0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
    ])
    expect(await store().rateLimits.hit(b, t + 1, 60_000, 10)).toMatchObject({
      allowed: false,
    })
  })

  test("rateLimits: hits stamped later than a request's own time count against it (a request that took the lock first, another server's clock)", async () => {
    const b = bucket()
    const t = baseMs()
    const hit = (ms: number) => store().rateLimits.hit(b, ms, 1000, 3)
    for (const ms of [t + 500, t + 400, t + 300]) {
      expect((await hit(ms)).allowed).toBe(true)
    }
    // read its time first, got the lock last: the window is full, and
    // the hits are stamped in the order they took the lock (t + 500)
    expect(await hit(t)).toEqual({
      allowed: false,
      remaining: 0,
      resetMs: 1500,
    })
    expect((await hit(t + 1499)).allowed).toBe(false)
    expect((await hit(t + 1500)).allowed).toBe(true)
  })

  test('rateLimits: property: hits of one window arriving in any order admit exactly the limit', () =>
    fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 999 }), {
          minLength: 1,
          maxLength: 12,
        }),
        fc.integer({ min: 1, max: 5 }),
        async (times, limit) => {
          const b = bucket()
          const t = baseMs()
          let admitted = 0
          for (const ms of times) {
            const r = await store().rateLimits.hit(b, t + ms, 1000, limit)
            if (r.allowed) admitted++
          }
          expect(admitted).toBe(Math.min(times.length, limit))
        },
      ),
      { numRuns: 30 },
    ))

  test('rateLimits: property: hits in time order are a sliding window: no window admits more than the limit, and a hit is refused only when the window is full', () =>
    fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 400 }), {
          minLength: 1,
          maxLength: 20,
        }),
        async (gaps) => {
          const b = bucket()
          const t = baseMs()
          const admitted: number[] = []
          let ms = 0
          for (const gap of gaps) {
            ms += gap
            const inWindow = admitted.filter((x) => x > ms - 1000).length
            const r = await store().rateLimits.hit(b, t + ms, 1000, 3)
            expect(r.allowed).toBe(inWindow < 3)
            if (r.allowed) admitted.push(ms)
          }
        },
      ),
      { numRuns: 30 },
    ))

  test('rateLimits: a hit inside a rolled-back transaction is undone', async () => {
    const b = bucket()
    const t = baseMs()
    await expect(
      store().transaction(async (tx) => {
        expect((await tx.rateLimits.hit(b, t, 1000, 1)).allowed).toBe(true)
        expect((await tx.rateLimits.hit(b, t, 1000, 1)).allowed).toBe(false)
        throw new Error('undo')
      }),
    ).rejects.toThrow('undo')
    expect(await store().rateLimits.hit(b, t, 1000, 1)).toEqual({
      allowed: true,
      remaining: 0,
      resetMs: 1000,
    })
  })
}

// ---------------------------------------------------------------- nonces, workers

function nonceAndWorkerTests(store: GetStore) {
  test('walletNonces: a nonce is usable once per owner', async () => {
    const owner = newOwner()
    const nonce = randomBytes(16).toString('hex')
    const at = iso(baseMs())
    const nonces = store().walletNonces
    expect(await nonces.use(owner, nonce, 'create_api_key', at)).toBe(true)
    expect(await nonces.use(owner, nonce, 'create_api_key', at)).toBe(false)
    expect(await nonces.use(owner, nonce, 'list_api_keys', at)).toBe(false)
    expect(await nonces.use(newOwner(), nonce, 'create_api_key', at)).toBe(true)
    expect(await nonces.use(owner, `${nonce}x`, 'create_api_key', at)).toBe(
      true,
    )
  })

  test('walletNonces: concurrent uses admit exactly one', async () => {
    const owner = newOwner()
    const nonce = randomUUID()
    const at = iso(baseMs())
    const used = await Promise.all(
      Array.from({ length: 10 }, () =>
        store().transaction((tx) =>
          tx.walletNonces.use(owner, nonce, 'revoke_api_key', at),
        ),
      ),
    )
    expect(used.filter(Boolean)).toHaveLength(1)
  })

  test('workers: heartbeat upserts and keeps a stored fence', async () => {
    const id = randomUUID()
    const t = baseMs()
    const workers = store().workers
    const find = async () => {
      const listed = (await workers.list()).find((w) => w.id === id)
      expect(await workers.get(id)).toEqual(listed)
      return listed
    }
    expect(await workers.get(id)).toBeUndefined()
    const first = {
      id,
      startedAt: iso(t),
      heartbeatAt: iso(t),
      fencedAt: null,
      host: null,
      pid: null,
    }
    await workers.heartbeat(first)
    expect(await find()).toEqual(first)
    await workers.heartbeat({ ...first, heartbeatAt: iso(t + 5) })
    expect(await find()).toEqual({ ...first, heartbeatAt: iso(t + 5) })
    await workers.heartbeat({ ...first, fencedAt: iso(t + 6) })
    await workers.heartbeat({ ...first, heartbeatAt: iso(t + 7) })
    expect(await find()).toEqual({
      ...first,
      heartbeatAt: iso(t + 7),
      fencedAt: iso(t + 6),
    })
  })

  test('workers: host and pid are kept; fence marks one worker once', async () => {
    const id = randomUUID()
    const t = baseMs()
    const workers = store().workers
    const record = {
      id,
      startedAt: iso(t),
      heartbeatAt: iso(t),
      fencedAt: null,
      host: 'box|boot|ns',
      pid: 4242,
    }
    await workers.heartbeat(record)
    expect(await workers.get(id)).toEqual(record)
    await workers.heartbeat({ ...record, pid: 4343 })
    expect((await workers.get(id))?.pid).toBe(4343)
    expect(await workers.fence(id, iso(t + 1))).toBe(true)
    expect(await workers.fence(id, iso(t + 2))).toBe(false)
    expect(await workers.fence(randomUUID(), iso(t + 2))).toBe(false)
    expect((await workers.get(id))?.fencedAt).toBe(iso(t + 1))
  })

  test('settings: the first value claimed stays', async () => {
    const name = `setting-${randomUUID()}`
    expect(await store().settings.claim(name, 'a')).toBe('a')
    expect(await store().settings.claim(name, 'b')).toBe('a')
    const both = await Promise.all(
      ['c', 'd'].map((v) => store().settings.claim(`${name}-2`, v)),
    )
    expect(both[0]).toBe(both[1])
  })

  test('workers: fenceAll fences every unfenced worker once', async () => {
    const t = baseMs()
    const live = [randomUUID(), randomUUID()]
    const fenced = randomUUID()
    for (const id of live) {
      await store().workers.heartbeat({
        id,
        startedAt: iso(t),
        heartbeatAt: iso(t),
        fencedAt: null,
      })
    }
    await store().workers.heartbeat({
      id: fenced,
      startedAt: iso(t),
      heartbeatAt: iso(t),
      fencedAt: iso(t + 1),
    })
    const at = iso(t + 10)
    expect(await store().workers.fenceAll(at)).toBeGreaterThanOrEqual(2)
    await store().workers.fenceAll(iso(t + 20))
    const byId = new Map((await store().workers.list()).map((w) => [w.id, w]))
    for (const id of live) expect(byId.get(id)?.fencedAt).toBe(at)
    expect(byId.get(fenced)?.fencedAt).toBe(iso(t + 1))
    for (const id of [...live, fenced]) {
      expect(await store().workers.get(id)).toEqual(byId.get(id))
    }
  })
}

// ---------------------------------------------------------------- transactions

function transactionTests(store: GetStore) {
  test('transaction: commits and returns the result', async () => {
    const t = task()
    const key = apiKey()
    const result = await store().transaction(async (tx) => {
      await tx.tasks.insert(t)
      await tx.apiKeys.insert(key)
      expect(await tx.tasks.get(t.id)).toEqual(t)
      return 42
    })
    expect(result).toBe(42)
    expect(await store().tasks.get(t.id)).toEqual(t)
    expect(await store().apiKeys.get(key.id)).toEqual(key)
  })

  test('transaction: rolls back on throw and rethrows the error', async () => {
    const t = task()
    const o = order()
    const failure = new Error('boom')
    await expect(
      store().transaction(async (tx) => {
        await tx.tasks.insert(t)
        await tx.orders.insert(o)
        await tx.walletNonces.use(t.owner, 'n', 'a', t.createdAt)
        throw failure
      }),
    ).rejects.toBe(failure)
    expect(await store().tasks.get(t.id)).toBeUndefined()
    expect(await store().orders.get(o.id)).toBeUndefined()
    expect(await store().walletNonces.use(t.owner, 'n', 'a', t.createdAt)).toBe(
      true,
    )
  })

  test('transaction: store calls inside fn join it instead of deadlocking', async () => {
    const t = task()
    const other = task()
    await expect(
      store().transaction(async (tx) => {
        await tx.tasks.insert(t)
        expect(await store().tasks.get(t.id)).toEqual(t)
        await store().tasks.insert(other)
        expect(await tx.tasks.get(other.id)).toEqual(other)
        throw new Error('rollback both')
      }),
    ).rejects.toThrow('rollback both')
    expect(await store().tasks.get(t.id)).toBeUndefined()
    expect(await store().tasks.get(other.id)).toBeUndefined()
  })

  test('transaction: a nested transaction is a savepoint', async () => {
    const [a, b, c] = [task(), task(), task()]
    await store().transaction(async (tx) => {
      await tx.tasks.insert(a)
      await expect(
        store().transaction(async (inner) => {
          await inner.tasks.insert(b)
          throw new Error('inner')
        }),
      ).rejects.toThrow('inner')
      await store().transaction((inner) => inner.tasks.insert(c))
    })
    expect(await store().tasks.get(a.id)).toEqual(a)
    expect(await store().tasks.get(b.id)).toBeUndefined()
    expect(await store().tasks.get(c.id)).toEqual(c)
  })

  test('transaction: a failed statement in a savepoint leaves the outer one usable', async () => {
    const existing = task()
    await store().tasks.insert(existing)
    const after = task()
    await store().transaction(async (tx) => {
      await expect(
        store().transaction((inner) => inner.tasks.insert(existing)),
      ).rejects.toThrow()
      await tx.tasks.insert(after)
    })
    expect(await store().tasks.get(after.id)).toEqual(after)
  })

  test('sharedTransaction: concurrent calls commit together; a failing one rolls back only its own writes', async () => {
    const owner = newOwner()
    const rows = Array.from({ length: 20 }, () => task({ owner }))
    const failure = new Error('this one fails')
    const results = await Promise.allSettled(
      rows.map((r, i) =>
        store().sharedTransaction(async (tx) => {
          await tx.tasks.insert(r)
          if (i % 5 === 3) throw failure
          return i
        }),
      ),
    )
    results.forEach((res, i) => {
      if (i % 5 === 3)
        expect(res).toEqual({ status: 'rejected', reason: failure })
      else expect(res).toEqual({ status: 'fulfilled', value: i })
    })
    for (const [i, r] of rows.entries()) {
      expect(await store().tasks.get(r.id)).toEqual(i % 5 === 3 ? undefined : r)
    }
  })

  test('sharedTransaction: a failed statement in one call leaves the others committed', async () => {
    const existing = task()
    await store().tasks.insert(existing)
    const fresh = [task(), task(), task()]
    const results = await Promise.allSettled([
      store().sharedTransaction((tx) =>
        tx.tasks.insert(fresh[0] as TaskRecord),
      ),
      // a duplicate key: the database refuses the statement
      store().sharedTransaction((tx) => tx.tasks.insert(existing)),
      store().sharedTransaction((tx) =>
        tx.tasks.insert(fresh[1] as TaskRecord),
      ),
      store().sharedTransaction(async (tx) => {
        await tx.tasks.insert(fresh[2] as TaskRecord)
        expect(await tx.tasks.get(fresh[2]?.id ?? '')).toEqual(fresh[2])
      }),
    ])
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ])
    for (const t of fresh) expect(await store().tasks.get(t.id)).toEqual(t)
  })

  test('sharedTransaction: the last call failing on a statement, and one with nested transactions, leave the others committed', async () => {
    const existing = task()
    await store().tasks.insert(existing)
    const [a, b, c, d] = [task(), task(), task(), task()]
    const results = await Promise.allSettled([
      store().sharedTransaction((tx) => tx.tasks.insert(a)),
      store().sharedTransaction(async (tx) => {
        await tx.tasks.insert(b)
        // nested: one rolled back, one kept, then the call goes on
        await expect(
          store().transaction(async (inner) => {
            await inner.tasks.insert(c)
            throw new Error('inner')
          }),
        ).rejects.toThrow('inner')
        await store().transaction((inner) => inner.tasks.insert(d))
        return (await tx.tasks.get(d.id))?.id
      }),
      // last in the group: its rollback goes with the commit
      store().sharedTransaction((tx) => tx.tasks.insert(existing)),
    ])
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
    ])
    expect(results[1]).toEqual({ status: 'fulfilled', value: d.id })
    expect(await store().tasks.get(a.id)).toEqual(a)
    expect(await store().tasks.get(b.id)).toEqual(b)
    expect(await store().tasks.get(c.id)).toBeUndefined()
    expect(await store().tasks.get(d.id)).toEqual(d)
    // the group goes on working afterwards
    const e = task()
    await Promise.all([
      store().sharedTransaction((tx) => tx.tasks.insert(e)),
      store().sharedTransaction((tx) => tx.tasks.get(e.id)),
    ])
    expect(await store().tasks.get(e.id)).toEqual(e)
  })

  test('sharedTransaction: inside a transaction it is a savepoint of it', async () => {
    const [a, b] = [task(), task()]
    await expect(
      store().transaction(async (tx) => {
        await tx.tasks.insert(a)
        await store().sharedTransaction((inner) => inner.tasks.insert(b))
        throw new Error('roll back both')
      }),
    ).rejects.toThrow('roll back both')
    expect(await store().tasks.get(a.id)).toBeUndefined()
    expect(await store().tasks.get(b.id)).toBeUndefined()
  })

  test('transaction: its repos fail once it has finished', async () => {
    let leaked: Parameters<Parameters<Store['transaction']>[0]>[0] | undefined
    await store().transaction(async (tx) => {
      leaked = tx
    })
    if (!leaked) throw new Error('transaction did not run')
    await expect(leaked.tasks.get(randomUUID())).rejects.toThrow()
  })

  test('transaction: concurrent transactions all complete', async () => {
    const owner = newOwner()
    const rows = Array.from({ length: 12 }, () => task({ owner }))
    await Promise.all(
      rows.map((r) =>
        store().transaction(async (tx) => {
          await tx.tasks.insert(r)
          await tx.requestLogs.insert(
            [requestLog(r.apiKeyId, 'strategy', baseMs())],
            10,
          )
        }),
      ),
    )
    const listed = await store().tasks.list({
      owner,
      venues: ALL_VENUES,
      limit: 20,
    })
    expect(listed).toHaveLength(12)
  })
}

// ---------------------------------------------------------------- claims

/** What the claim tests see of a task, an order or a binding batch. */
type Claimable = Lease & {
  readonly id: string
  readonly status: string
  readonly updatedAt: string
}
type ClaimFixture = Partial<
  Pick<Claimable, keyof Lease | 'status' | 'updatedAt'>
>

/** Tasks, orders and binding batches, behind one shape, so one suite covers all. */
interface ClaimKind {
  readonly name: 'tasks' | 'orders' | 'bindingBatches'
  /** three distinct statuses */
  readonly statuses: readonly [string, string, string]
  insert(store: Store, over: ClaimFixture): Promise<Claimable>
  claim(store: Store, request: ClaimRequest<string>): Promise<Claimable[]>
  get(store: Store, id: string): Promise<Claimable | undefined>
  renew(
    store: Store,
    id: string,
    until: string,
    fence: number,
  ): Promise<boolean>
  /** a fenced write: sets `error` if `fence` still holds */
  write(
    store: Store,
    id: string,
    fence: number,
    at: string,
  ): Promise<Claimable | undefined>
}

const taskKind: ClaimKind = {
  name: 'tasks',
  statuses: ['pending', 'running', 'closing'],
  async insert(store, over) {
    const record = task(over as Partial<TaskRecord>)
    await store.tasks.insert(record)
    return record
  },
  claim: (store, request) =>
    store.tasks.claim(request as ClaimRequest<TaskStatus>),
  get: (store, id) => store.tasks.get(id),
  renew: (store, id, until, fence) =>
    store.tasks.renewLease(id, until, { fence }),
  write: (store, id, fence, at) =>
    store.tasks.update(id, { error: 'written', updatedAt: at }, { fence }),
}

const orderKind: ClaimKind = {
  name: 'orders',
  statuses: ['pending', 'open', 'unknown'],
  async insert(store, over) {
    const record = order(over as Partial<PerpOrderRecord>)
    await store.orders.insert(record)
    return record
  },
  claim: (store, request) =>
    store.orders.claim(request as ClaimRequest<PerpOrderStatus>),
  get: (store, id) => store.orders.get(id),
  renew: (store, id, until, fence) =>
    store.orders.renewLease(id, until, { fence }),
  write: (store, id, fence, at) =>
    store.orders.update(id, { error: 'written', updatedAt: at }, { fence }),
}

const batchKind: ClaimKind = {
  name: 'bindingBatches',
  statuses: ['processing', 'awaiting_signatures', 'partial_success'],
  async insert(store, over) {
    const record = batch(over as Partial<BindingBatchRecord>)
    await store.bindingBatches.insert(record)
    return record
  },
  claim: (store, request) =>
    store.bindingBatches.claim(request as ClaimRequest<BindingBatchStatus>),
  get: (store, id) => store.bindingBatches.get(id),
  renew: (store, id, until, fence) =>
    store.bindingBatches.renewLease(id, until, { fence }),
  write: (store, id, fence, at) =>
    store.bindingBatches.update(
      id,
      { expiresAt: at, updatedAt: at },
      { fence },
    ),
}

const sortedIds = (rows: readonly { id: string }[]) => ids(rows).sort()

function busyMarketTests(databases: StoreContractDatabases) {
  test('orders: claim skips orders on a busy account market, and only those', () =>
    withOwnDatabase(databases, async (store) => {
      const t = baseMs()
      const owner = newOwner()
      const at = new Date(t - 10_000).toISOString()
      const put = async (over: Partial<PerpOrderRecord>) => {
        const o = order({ owner, status: 'pending', updatedAt: at, ...over })
        await store.orders.insert(o)
        return o
      }
      const busyEth = await put({ venue: 'hl', market: 'ETH' })
      const sol = await put({ venue: 'hl', market: 'SOL' })
      const asterEth = await put({ venue: 'aster', market: 'ETH' })
      const otherOwner = await put({ owner: newOwner(), market: 'ETH' })
      const claim = (busyMarkets: string[]) =>
        store.orders.claim({
          workerId: 'w1',
          now: new Date(t).toISOString(),
          leaseMs: 60_000,
          statuses: ['pending'],
          limit: 100,
          busyMarkets,
        })
      const first = await claim([`${owner}|hl|ETH`])
      expect(sortedIds(first)).toEqual(sortedIds([sol, asterEth, otherOwner]))
      expect(sortedIds(await claim([]))).toEqual([busyEth.id])
    }))

  test('orders: one claim leases the oldest order of each account market, and only it', () =>
    withOwnDatabase(databases, async (store) => {
      const t = baseMs()
      const owner = newOwner()
      const put = async (ageMs: number, over: Partial<PerpOrderRecord>) => {
        const o = order({
          owner,
          status: 'pending',
          updatedAt: new Date(t - ageMs).toISOString(),
          ...over,
        })
        await store.orders.insert(o)
        return o
      }
      const eth1 = await put(3000, { venue: 'hl', market: 'ETH' })
      const eth2 = await put(2000, { venue: 'hl', market: 'ETH' })
      await put(1000, { venue: 'hl', market: 'ETH' })
      const sol = await put(500, { venue: 'hl', market: 'SOL' })
      const claim = (workerId: string, ms: number) =>
        store.orders.claim({
          workerId,
          now: new Date(t + ms).toISOString(),
          leaseMs: 60_000,
          statuses: ['pending'],
          limit: 100,
        })
      expect(sortedIds(await claim('w1', 0))).toEqual(sortedIds([eth1, sol]))
      // the next claim takes the next: a leased order does not hold its
      // market (one whose step failed keeps its lease as a backoff); the
      // market's lock does, while a step holds it
      expect(ids(await claim('w2', 1))).toEqual([eth2.id])
    }))

  test('orders: a claim skips orders whose account-market lock is held, until it expires', () =>
    withOwnDatabase(databases, async (store) => {
      const t = baseMs()
      const owner = newOwner()
      const [o, other] = ['ETH', 'SOL'].map((market) =>
        order({
          owner,
          venue: 'hl',
          market,
          status: 'pending',
          updatedAt: new Date(t - 1000).toISOString(),
        }),
      ) as [PerpOrderRecord, PerpOrderRecord]
      await store.orders.insert(o)
      await store.orders.insert(other)
      const now = new Date(t).toISOString()
      // a task leg of the same account holds the market
      expect(
        await store.locks.acquire(`${owner}|hl|ETH`, 'w9|task|x', now, 5_000),
      ).toBe(true)
      const claim = (ms: number) =>
        store.orders.claim({
          workerId: 'w1',
          now: new Date(t + ms).toISOString(),
          leaseMs: 60_000,
          statuses: ['pending'],
          limit: 100,
        })
      expect(ids(await claim(0))).toEqual([other.id])
      expect(ids(await claim(5_000))).toEqual([o.id])
      // an order at the venue is looked at without the lock: claimed
      // whatever holds it, as many of one market as are due
      const resting = ['open', 'open', 'unknown'].map((status) =>
        order({
          owner,
          venue: 'hl',
          market: 'ETH',
          status: status as PerpOrderRecord['status'],
          updatedAt: new Date(t - 1000).toISOString(),
        }),
      )
      for (const r of resting) await store.orders.insert(r)
      expect(
        await store.locks.acquire(
          `${owner}|hl|ETH`,
          'w9|task|y',
          new Date(t + 5_000).toISOString(),
          60_000,
        ),
      ).toBe(true)
      const looked = await store.orders.claim({
        workerId: 'w2',
        now: new Date(t + 6_000).toISOString(),
        leaseMs: 60_000,
        statuses: ['pending', 'open', 'unknown'],
        limit: 100,
        busyMarkets: [`${owner}|hl|ETH`],
      })
      expect(sortedIds(looked)).toEqual(sortedIds(resting))
    }))

  test("orders: a claim with lockPending takes each leased pending order's lock until the lease ends, in the claim", () =>
    withOwnDatabase(databases, async (store) => {
      const t = baseMs()
      const owner = newOwner()
      const at = (ms: number) => new Date(t + ms).toISOString()
      const make = (
        market: string,
        status: PerpOrderRecord['status'],
        ms = -1000,
      ) => order({ owner, venue: 'hl', market, status, updatedAt: at(ms) })
      const eth = make('ETH', 'pending')
      const sol = make('SOL', 'pending')
      const resting = make('ETH', 'open')
      // queued behind `sol` on its market
      const later = make('SOL', 'pending', -500)
      for (const o of [eth, sol, resting, later]) await store.orders.insert(o)
      const locked: string[] = []
      const lockOf = (o: { id: string; market: string }) => ({
        name: `${owner}|hl|${o.market}`,
        holder: `w1|order|${o.id}`,
      })
      const claimed = await store.orders.claim({
        workerId: 'w1',
        now: at(0),
        leaseMs: 10_000,
        statuses: ['pending', 'open'],
        limit: 100,
        lockPending: { lockOf, onLocked: (id) => locked.push(id) },
      })
      // one pending order per market is leased, and its lock taken; the
      // resting order is leased without one
      expect(sortedIds(claimed)).toEqual(sortedIds([eth, sol, resting]))
      expect(locked.sort()).toEqual([eth.id, sol.id].sort())
      // held by the order's holder until the lease ends
      for (const o of [eth, sol]) {
        const { name, holder } = lockOf(o)
        expect(await store.locks.acquire(name, 'w9|task|x', at(9_999), 1)).toBe(
          false,
        )
        expect(await store.locks.acquire(name, holder, at(9_999), 10_000)).toBe(
          true,
        )
        await store.locks.release(name, holder)
      }
      // a lock another holder has now is neither taken nor reported
      expect(
        await store.locks.acquire(
          `${owner}|hl|SOL`,
          'w9|task|y',
          at(0),
          60_000,
        ),
      ).toBe(true)
      const again: string[] = []
      const second = await store.orders.claim({
        workerId: 'w2',
        now: at(20_000),
        leaseMs: 10_000,
        statuses: ['pending'],
        limit: 100,
        lockPending: { lockOf, onLocked: (id) => again.push(id) },
      })
      expect(ids(second)).toEqual([eth.id])
      expect(again).toEqual([eth.id])
    }))
}

function claimTests(databases: StoreContractDatabases, kind: ClaimKind) {
  const k = kind.name
  const [s1, s2, s3] = kind.statuses
  const own = <T>(
    fn: (store: Store, peer: (() => Promise<Store>) | undefined) => Promise<T>,
  ) => withOwnDatabase(databases, fn)

  test(`${k}: renewLease moves only the lease's expiry, while the fence holds`, () =>
    own(async (store) => {
      const t = baseMs()
      const row = await kind.insert(store, { status: s1, updatedAt: iso(t) })
      const [mine] = await kind.claim(store, {
        workerId: 'w1',
        now: iso(t),
        leaseMs: 1000,
        statuses: [s1],
        limit: 1,
      })
      expect(mine?.id).toBe(row.id)
      const fence = mine?.fence as number
      expect(await kind.renew(store, row.id, iso(t + 5000), fence)).toBe(true)
      expect(await kind.get(store, row.id)).toEqual({
        ...mine,
        leaseExpiresAt: iso(t + 5000),
      })
      // renewed: not due for another worker when the first lease would end
      const other = {
        workerId: 'w2',
        leaseMs: 1000,
        statuses: [s1],
        limit: 1,
      }
      expect(await kind.claim(store, { ...other, now: iso(t + 2000) })).toEqual(
        [],
      )
      const [taken] = await kind.claim(store, { ...other, now: iso(t + 5000) })
      expect(taken?.fence).toBe(fence + 1)
      // the old fence renews nothing once the row is taken
      expect(await kind.renew(store, row.id, iso(t + 9000), fence)).toBe(false)
      expect((await kind.get(store, row.id))?.leaseExpiresAt).toBe(
        iso(t + 6000),
      )
    }))

  test(`${k}: claim skips the rows it is told to exclude, due or expired`, () =>
    own(async (store) => {
      const t = baseMs()
      const insert = (over: ClaimFixture) =>
        kind.insert(store, { updatedAt: iso(t - 10_000), ...over })
      const running = await insert({
        status: s1,
        leaseOwner: 'w1',
        leaseExpiresAt: iso(t - 1),
        fence: 2,
      })
      const waiting = await insert({ status: s1 })
      const other = await insert({ status: s1 })
      const claim = (exclude: string[]) =>
        kind.claim(store, {
          workerId: 'w1',
          now: iso(t),
          leaseMs: 60_000,
          statuses: [s1],
          limit: 100,
          exclude,
        })
      const first = await claim([running.id, waiting.id])
      expect(sortedIds(first)).toEqual([other.id])
      const second = await claim([])
      expect(sortedIds(second)).toEqual(sortedIds([running, waiting]))
    }))

  test(`${k}: a scheduled status is claimed only at its check`, () =>
    own(async (store) => {
      const t = baseMs()
      const insert = (over: ClaimFixture) =>
        kind.insert(store, { updatedAt: iso(t - 10_000), ...over })
      const active = await insert({ status: s1 })
      // a final row without a check: never claimed
      await insert({ status: s2 })
      await insert({ status: s2, nextCheckAt: iso(t + 1) })
      const due = await insert({ status: s2, nextCheckAt: iso(t) })
      await insert({ status: s3, nextCheckAt: iso(t - 1) })
      const claimed = await kind.claim(store, {
        workerId: 'w1',
        now: iso(t),
        leaseMs: 60_000,
        statuses: [s1],
        scheduledStatuses: [s2],
        limit: 100,
      })
      expect(sortedIds(claimed)).toEqual(sortedIds([active, due]))
      // scheduled statuses alone
      const late = await insert({ status: s2, nextCheckAt: iso(t - 5) })
      const only = await kind.claim(store, {
        workerId: 'w2',
        now: iso(t),
        leaseMs: 60_000,
        statuses: [],
        scheduledStatuses: [s2],
        limit: 100,
      })
      expect(sortedIds(only)).toEqual([late.id])
    }))

  test(`${k}: claim takes only due rows: status, lease, nextCheckAt`, () =>
    own(async (store) => {
      const t = baseMs()
      const leaseMs = 60_000
      const insert = (over: ClaimFixture) =>
        kind.insert(store, { updatedAt: iso(t - 10_000), ...over })
      const free = await insert({ status: s1 })
      const otherStatus = await insert({ status: s2 })
      const thirdStatus = await insert({ status: s3 })
      const live = await insert({
        status: s1,
        leaseOwner: 'other',
        leaseExpiresAt: iso(t + 1000),
        fence: 3,
      })
      const expiresNow = await insert({
        status: s1,
        leaseOwner: 'other',
        leaseExpiresAt: iso(t),
        fence: 7,
      })
      const expired = await insert({
        status: s1,
        leaseOwner: 'other',
        leaseExpiresAt: iso(t - 1),
        fence: 1,
      })
      const later = await insert({ status: s1, nextCheckAt: iso(t + 1) })
      const checkNow = await insert({ status: s1, nextCheckAt: iso(t) })
      const checkPast = await insert({
        status: s1,
        nextCheckAt: iso(t - 5000),
      })
      const claim = (statuses: string[], nowMs: number) =>
        kind.claim(store, {
          workerId: 'w1',
          now: iso(nowMs),
          leaseMs,
          statuses,
          limit: 100,
        })
      const leased = (row: Claimable, nowMs: number): Claimable => ({
        ...row,
        leaseOwner: 'w1',
        leaseExpiresAt: iso(nowMs + leaseMs),
        fence: row.fence + 1,
      })

      const first = await claim([s1], t)
      expect(sortedIds(first)).toEqual(
        sortedIds([free, expiresNow, expired, checkNow, checkPast]),
      )
      for (const row of [free, expiresNow, expired, checkNow, checkPast]) {
        const expected = leased(row, t)
        expect(first.find((r) => r.id === row.id)).toEqual(expected)
        expect(await kind.get(store, row.id)).toEqual(expected)
      }
      expect(await claim([s2], t)).toEqual([leased(otherStatus, t)])
      expect(await claim([], t)).toEqual([])
      // everything else is leased now; only the third status is left
      expect(await claim([s1, s2, s3], t)).toEqual([leased(thirdStatus, t)])
      expect(await claim([s1, s2, s3], t)).toEqual([])
      expect(await claim([s1], t + 1)).toEqual([leased(later, t + 1)])
      expect(await claim([s1], t + 999)).toEqual([])
      expect(await claim([s1], t + 1000)).toEqual([leased(live, t + 1000)])
      // the untouched rows kept their lease
      expect(await kind.get(store, live.id)).toMatchObject({ fence: 4 })
    }))

  test(`${k}: claim raises the fence by one, oldest first, up to the limit`, () =>
    own(async (store) => {
      const t = baseMs()
      const insert = (updatedMs: number, nextMs: number | null, fence = 0) =>
        kind.insert(store, {
          status: s1,
          updatedAt: iso(updatedMs),
          nextCheckAt: nextMs === null ? null : iso(nextMs),
          fence,
        })
      // due order: coalesce(nextCheckAt, updatedAt)
      const r3 = await insert(t - 4000, t - 500, 2)
      const r1 = await insert(t - 3000, null)
      const r2 = await insert(t - 1000, t - 5000, 5)
      const r4 = await insert(t - 2000, null, 9)
      const claim = (limit: number, workerId = 'w1') =>
        kind.claim(store, {
          workerId,
          now: iso(t),
          leaseMs: 1000,
          statuses: [s1],
          limit,
        })
      expect(await claim(0)).toEqual([])
      const firstTwo = await claim(2)
      expect(ids(firstTwo)).toEqual([r2.id, r1.id])
      expect(firstTwo.map((r) => r.fence)).toEqual([6, 1])
      const rest = await claim(10, 'w2')
      expect(ids(rest)).toEqual([r4.id, r3.id])
      expect(rest.map((r) => [r.fence, r.leaseOwner])).toEqual([
        [10, 'w2'],
        [3, 'w2'],
      ])
      expect(await claim(10, 'w3')).toEqual([])
    }))

  test(`${k}: a live lease is free when its owner is fenced or stopped heartbeating before ownerDeadBefore`, () =>
    own(async (store) => {
      const t = baseMs()
      const beat = (id: string, heartbeatMs: number) =>
        store.workers.heartbeat({
          id,
          startedAt: iso(t - 60_000),
          heartbeatAt: iso(heartbeatMs),
          fencedAt: null,
          host: 'box|boot|ns',
          pid: 4242,
        })
      await beat('beating', t - 1_000)
      await beat('silent', t - 20_000)
      await beat('gone', t - 1_000)
      await store.workers.fence('gone', iso(t - 500))
      const heldBy = (owner: string) =>
        kind.insert(store, {
          status: s1,
          leaseOwner: owner,
          leaseExpiresAt: iso(t + 30_000),
          fence: 2,
        })
      const beating = await heldBy('beating')
      const silent = await heldBy('silent')
      const gone = await heldBy('gone')
      const unknown = await heldBy('never-registered')
      const claim = (ownerDeadBefore?: string) =>
        kind.claim(store, {
          workerId: 'taker',
          now: iso(t),
          leaseMs: 1000,
          statuses: [s1],
          limit: 10,
          ...(ownerDeadBefore ? { ownerDeadBefore } : {}),
        })
      // a fenced owner's leases are free at once
      expect(ids(await claim())).toEqual([gone.id])
      // a silent one's once its heartbeat is older than the bound
      expect(await claim(iso(t - 30_000))).toEqual([])
      expect(ids(await claim(iso(t - 10_000)))).toEqual([silent.id])
      // a beating owner, or one the workers table does not know, keeps it
      for (const row of [beating, unknown]) {
        expect(await kind.get(store, row.id)).toMatchObject({
          leaseOwner: row.leaseOwner,
          fence: 2,
        })
      }
      expect(await kind.get(store, gone.id)).toMatchObject({
        leaseOwner: 'taker',
        fence: 3,
      })
    }))

  test(`${k}: a fenced worker claims nothing; one without a heartbeat may`, () =>
    own(async (store) => {
      const t = baseMs()
      const row = await kind.insert(store, { status: s1 })
      const claim = (workerId: string) =>
        kind.claim(store, {
          workerId,
          now: iso(t),
          leaseMs: 1000,
          statuses: [s1],
          limit: 10,
        })
      const beat = (id: string, fencedAt: string | null) =>
        store.workers.heartbeat({
          id,
          startedAt: iso(t - 10),
          heartbeatAt: iso(t - 5),
          fencedAt,
        })
      await beat('fenced', iso(t - 1))
      await beat('alive', null)
      expect(await claim('fenced')).toEqual([])
      expect((await kind.get(store, row.id))?.fence).toBe(0)
      expect(ids(await claim('alive'))).toEqual([row.id])
      const other = await kind.insert(store, { status: s1 })
      expect(await claim('fenced')).toEqual([])
      expect(ids(await claim('never-beat'))).toEqual([other.id])
      await store.workers.fenceAll(iso(t))
      const third = await kind.insert(store, { status: s1 })
      expect(await claim('alive')).toEqual([])
      // and what the fenced workers held is free at once
      expect(sortedIds(await claim('never-beat-either'))).toEqual(
        sortedIds([row, third]),
      )
    }))

  test(`${k}: after a re-claim the old fence no longer writes`, () =>
    own(async (store) => {
      const t = baseMs()
      const row = await kind.insert(store, { status: s1 })
      const claim = (workerId: string, nowMs: number) =>
        kind.claim(store, {
          workerId,
          now: iso(nowMs),
          leaseMs: 1000,
          statuses: [s1],
          limit: 10,
        })
      const [mine] = await claim('w1', t)
      expect(mine?.fence).toBe(1)
      expect(await claim('w2', t + 999)).toEqual([])
      expect(await kind.write(store, row.id, 1, iso(t + 1))).toMatchObject({
        fence: 1,
        leaseOwner: 'w1',
      })
      const [theirs] = await claim('w2', t + 1000)
      expect(theirs).toMatchObject({ fence: 2, leaseOwner: 'w2' })
      expect(await kind.write(store, row.id, 1, iso(t + 2))).toBeUndefined()
      expect(await kind.write(store, row.id, 2, iso(t + 3))).toMatchObject({
        fence: 2,
        updatedAt: iso(t + 3),
      })
    }))

  test(`${k}: a claim inside a transaction rolls back with it`, () =>
    own(async (store) => {
      const t = baseMs()
      const row = await kind.insert(store, { status: s1 })
      const request = {
        workerId: 'w1',
        now: iso(t),
        leaseMs: 1000,
        statuses: [s1],
        limit: 10,
      }
      await expect(
        store.transaction(async () => {
          expect(ids(await kind.claim(store, request))).toEqual([row.id])
          throw new Error('undo')
        }),
      ).rejects.toThrow('undo')
      expect(await kind.get(store, row.id)).toEqual(row)
      const claimed = await store.transaction(() => kind.claim(store, request))
      expect(claimed).toEqual([
        { ...row, leaseOwner: 'w1', fence: 1, leaseExpiresAt: iso(t + 1000) },
      ])
    }))

  if (databases.shared) {
    test(`${k}: a claim skips rows another open claim holds`, () =>
      own(async (store, peer) => {
        if (peer === undefined) throw new Error('shared databases need a peer')
        const other = await peer()
        const t = baseMs()
        const rows: Claimable[] = []
        for (let i = 0; i < 4; i++) {
          rows.push(
            await kind.insert(store, { status: s1, updatedAt: iso(t - i) }),
          )
        }
        const request = (workerId: string) => ({
          workerId,
          now: iso(t),
          leaseMs: 60_000,
          statuses: [s1],
          limit: 2,
        })
        const [held, skipped] = await store.transaction(async () => {
          const mine = await kind.claim(store, request('wa'))
          // the other store must not wait for this transaction's rows
          const theirs = await Promise.race([
            kind.claim(other, request('wb')),
            sleep(5000).then(() => {
              throw new Error('the claim waited for locked rows')
            }),
          ])
          return [mine, theirs]
        })
        expect(held).toHaveLength(2)
        expect(skipped).toHaveLength(2)
        expect(sortedIds([...held, ...skipped])).toEqual(sortedIds(rows))
      }))
  }

  test(`${k}: concurrent claimers never hold the same row`, () =>
    own(async (store, peer) => {
      // two stores on one database where possible, else one store twice
      const other = peer === undefined ? store : await peer()
      const t = baseMs()
      const rows: Claimable[] = []
      for (let i = 0; i < 20; i++) {
        rows.push(
          await kind.insert(store, {
            status: i % 2 ? s1 : s2,
            updatedAt: iso(t - i),
          }),
        )
      }
      const claim = (s: Store, workerId: string) =>
        kind.claim(s, {
          workerId,
          now: iso(t),
          leaseMs: 3_600_000,
          statuses: [s1, s2],
          limit: 3,
        })
      const claimed: Claimable[] = []
      for (let round = 0; round < 10; round++) {
        const [a, b] = await Promise.all([
          claim(store, 'wa'),
          claim(other, 'wb'),
        ])
        expect(a.length).toBeLessThanOrEqual(3)
        expect(b.length).toBeLessThanOrEqual(3)
        claimed.push(...a, ...b)
      }
      expect(claimed).toHaveLength(20)
      expect(sortedIds(claimed)).toEqual(sortedIds(rows))
      expect(claimed.every((r) => r.fence === 1)).toBe(true)
      for (const r of claimed) {
        expect((await kind.get(store, r.id))?.leaseOwner).toBe(r.leaseOwner)
      }
    }))
}

// ---------------------------------------------------------------- counters

function counterTests(store: GetStore) {
  test('counters: strictly increasing, never below the floor', async () => {
    const name = `hl-nonce|${randomUUID()}`
    const counters = store().counters
    const t = 1_800_000_000_000
    expect(await counters.next(name, t)).toBe(t)
    // same millisecond again: one more, not a repeat
    expect(await counters.next(name, t)).toBe(t + 1)
    // a clock behind the counter never goes back
    expect(await counters.next(name, t - 5_000)).toBe(t + 2)
    // a clock ahead moves the counter to it
    expect(await counters.next(name, t + 10_000)).toBe(t + 10_000)
    expect(await counters.next(`other|${randomUUID()}`, 7)).toBe(7)
  })

  test('counters: concurrent calls never return the same value', async () => {
    const name = `hl-nonce|${randomUUID()}`
    const t = 1_800_000_000_000
    const values = await Promise.all(
      Array.from({ length: 40 }, () => store().counters.next(name, t)),
    )
    expect(new Set(values).size).toBe(40)
    expect(Math.max(...values)).toBe(t + 39)
  })
}

// ---------------------------------------------------------------- locks

function lockTests(store: GetStore) {
  const lockName = () => `owner|hl|${randomUUID()}`

  test('locks: releaseHeldBy frees every lock of one holder prefix, and only those', async () => {
    const t = baseMs()
    const locks = store().locks
    const worker = `w%_${randomUUID()}`
    const [a, b, c] = [lockName(), lockName(), lockName()]
    expect(await locks.acquire(a, `${worker}|order|1`, iso(t), 60_000)).toBe(
      true,
    )
    expect(await locks.acquire(b, `${worker}|task|2`, iso(t), 60_000)).toBe(
      true,
    )
    // a prefix of the id is another worker: LIKE would have matched it
    expect(await locks.acquire(c, `wx_${worker}|order|3`, iso(t), 60_000)).toBe(
      true,
    )
    expect(await locks.releaseHeldBy(`${worker}|`)).toBe(2)
    expect(await locks.acquire(a, 'next', iso(t + 1), 60_000)).toBe(true)
    expect(await locks.acquire(b, 'next', iso(t + 1), 60_000)).toBe(true)
    expect(await locks.acquire(c, 'next', iso(t + 1), 60_000)).toBe(false)
  })

  test('locks: acquire, extend, steal after expiry, release', async () => {
    const name = lockName()
    const t = baseMs()
    const locks = store().locks
    const acquire = (holder: string, ms: number) =>
      locks.acquire(name, holder, iso(ms), 1000)
    expect(await acquire('a', t)).toBe(true)
    expect(await acquire('b', t + 1)).toBe(false)
    // a extends its hold to t + 1500
    expect(await acquire('a', t + 500)).toBe(true)
    expect(await acquire('b', t + 1000)).toBe(false)
    expect(await acquire('b', t + 1499)).toBe(false)
    expect(await acquire('b', t + 1500)).toBe(true)
    expect(await acquire('a', t + 1501)).toBe(false)
    // a no longer holds it: its release leaves b's hold alone
    await locks.release(name, 'a')
    expect(await acquire('c', t + 1502)).toBe(false)
    await locks.release(name, 'b')
    expect(await acquire('c', t + 1503)).toBe(true)
    // other names are separate
    expect(await locks.acquire(lockName(), 'd', iso(t), 1000)).toBe(true)
  })

  test('locks: release by a non-holder is a no-op; unknown names too', async () => {
    const name = lockName()
    const t = baseMs()
    const locks = store().locks
    await locks.release(name, 'a')
    expect(await locks.acquire(name, 'a', iso(t), 60_000)).toBe(true)
    await locks.release(name, 'b')
    expect(await locks.acquire(name, 'b', iso(t + 1), 60_000)).toBe(false)
    expect(await locks.acquire(name, 'a', iso(t + 2), 60_000)).toBe(true)
  })

  test('locks: a rolled-back acquire is not kept', async () => {
    const name = lockName()
    const t = baseMs()
    await expect(
      store().transaction(async (tx) => {
        expect(await tx.locks.acquire(name, 'a', iso(t), 60_000)).toBe(true)
        throw new Error('undo')
      }),
    ).rejects.toThrow('undo')
    expect(await store().locks.acquire(name, 'b', iso(t), 60_000)).toBe(true)
  })

  test('locks: 10 concurrent holders, exactly one wins', async () => {
    const t = baseMs()
    const fresh = lockName()
    // held by a holder whose lock has expired
    const stale = lockName()
    expect(await store().locks.acquire(stale, 'old', iso(t - 2000), 1000)).toBe(
      true,
    )
    for (const name of [fresh, stale]) {
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          i % 2 === 0
            ? store().locks.acquire(name, `h${i}`, iso(t), 60_000)
            : store().transaction((tx) =>
                tx.locks.acquire(name, `h${i}`, iso(t), 60_000),
              ),
        ),
      )
      expect(results.filter(Boolean)).toHaveLength(1)
      const winner = `h${results.indexOf(true)}`
      expect(
        await store().locks.acquire(name, winner, iso(t + 1), 60_000),
      ).toBe(true)
      expect(await store().locks.acquire(name, 'old', iso(t + 1), 60_000)).toBe(
        false,
      )
    }
  })
}

// ---------------------------------------------------------------- notify

const channelName = () => `dn_test_${randomBytes(6).toString('hex')}`
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Resolves once `done()` holds; fails after `ms`. */
async function waitFor(done: () => boolean, ms = 2000): Promise<void> {
  const until = Date.now() + ms
  while (!done()) {
    if (Date.now() > until) throw new Error(`not woken within ${ms} ms`)
    await sleep(5)
  }
}

/** A listener that counts its wakes. */
function counter() {
  const c = {
    wakes: 0,
    wake: () => {
      c.wakes += 1
    },
  }
  return c
}

function notifyTests(store: GetStore, databases: StoreContractDatabases) {
  test('notify: wakes every listener of the channel; unsubscribe stops it', async () => {
    const channel = channelName()
    const [a, b, c, elsewhere] = [counter(), counter(), counter(), counter()]
    const offA = await store().listen(channel, a.wake)
    const offB = await store().listen(channel, b.wake)
    const offElsewhere = await store().listen(channelName(), elsewhere.wake)
    await store().notify(channel)
    await waitFor(() => a.wakes === 1 && b.wakes === 1)
    await offA()
    await offA()
    await store().notify(channel)
    // one notification reaches every subscriber at once, so once b has
    // it, a would have had it too
    await waitFor(() => b.wakes === 2)
    expect(a.wakes).toBe(1)
    // the last unsubscribe of a channel, then a new subscription to it
    await offB()
    const offC = await store().listen(channel, c.wake)
    await store().notify(channel)
    await waitFor(() => c.wakes === 1)
    expect([a.wakes, b.wakes, elsewhere.wakes]).toEqual([1, 2, 0])
    await offC()
    await offElsewhere()
  })

  test('notify: listeners run later, and their errors stay theirs', async () => {
    const channel = channelName()
    let notifying = false
    let ranInsideNotify: boolean | undefined
    const other = counter()
    const offBad = await store().listen(channel, () => {
      ranInsideNotify ??= notifying
      throw new Error('listener bug')
    })
    const offOther = await store().listen(channel, other.wake)
    notifying = true
    const sent = store().notify(channel)
    notifying = false
    await sent
    await waitFor(() => other.wakes === 1)
    expect(ranInsideNotify).toBe(false)
    await store().notify(channel)
    await waitFor(() => other.wakes === 2)
    await offBad()
    await offOther()
  })

  /**
   * A listened channel, and `settled()`: notifications arrive in order,
   * so once a marker sent after them is heard, every one sent before it
   * (or rolled back) would have been too.
   */
  async function listened() {
    const channel = channelName()
    const marker = channelName()
    const woken = counter()
    const marked = counter()
    const off = await store().listen(channel, woken.wake)
    const offMarker = await store().listen(marker, marked.wake)
    return {
      channel,
      woken,
      async settled() {
        const heard = marked.wakes + 1
        await store().notify(marker)
        await waitFor(() => marked.wakes === heard)
      },
      async off() {
        await off()
        await offMarker()
      },
    }
  }

  test('notify: inside a transaction it is delivered on commit only', async () => {
    const { channel, woken, settled, off } = await listened()
    await store().transaction(async () => {
      await store().notify(channel)
      await sleep(150)
      expect(woken.wakes).toBe(0)
    })
    await waitFor(() => woken.wakes === 1)
    await expect(
      store().transaction(async () => {
        await store().notify(channel)
        throw new Error('undo')
      }),
    ).rejects.toThrow('undo')
    await store().transaction(async () => {
      await expect(
        store().transaction(async () => {
          await store().notify(channel)
          throw new Error('undo savepoint')
        }),
      ).rejects.toThrow('undo savepoint')
    })
    await settled()
    expect(woken.wakes).toBe(1)
    await off()
  })

  test('notify: the commands of one shared commit wake a listener once', async () => {
    const { channel, woken, settled, off } = await listened()
    await Promise.all(
      Array.from({ length: 5 }, () =>
        store().sharedTransaction(async () => {
          await store().notify(channel)
          await store().notify(channel)
        }),
      ),
    )
    await settled()
    // one per commit: at least one, and fewer than one per command
    expect(woken.wakes).toBeGreaterThanOrEqual(1)
    expect(woken.wakes).toBeLessThan(10)
    await off()
  })

  test('notify: channel names must be lowercase identifiers', async () => {
    for (const bad of [
      '',
      'Upper',
      'has-dash',
      '1st',
      'x; drop',
      'a'.repeat(64),
    ]) {
      await expect(store().notify(bad)).rejects.toThrow('invalid')
      await expect(store().listen(bad, () => undefined)).rejects.toThrow(
        'invalid',
      )
    }
    const off = await store().listen(`a${'b'.repeat(62)}`, () => undefined)
    await off()
  })

  // Stores that share a database (PostgreSQL) wake each other.
  if (!databases.shared) return
  test('notify: reaches listeners of other stores on the database', async () => {
    await withOwnDatabase(databases, async (a, peer) => {
      if (peer === undefined) throw new Error('shared databases need a peer')
      const b = await peer()
      const channel = channelName()
      const [first, second] = [counter(), counter()]
      const offFirst = await a.listen(channel, first.wake)
      const offSecond = await a.listen(channel, second.wake)
      await b.notify(channel)
      await waitFor(() => first.wakes === 1 && second.wakes === 1)
      await offFirst()
      await b.notify(channel)
      await waitFor(() => second.wakes === 2)
      expect(first.wakes).toBe(1)
      // a notify inside b's transaction arrives once it commits
      await b.transaction(async () => {
        await b.notify(channel)
        await sleep(150)
        expect(second.wakes).toBe(2)
      })
      await waitFor(() => second.wakes === 3)
      await offSecond()
      await b.notify(channel)
      await sleep(150)
      expect([first.wakes, second.wakes]).toEqual([1, 3])
    })
  })
}

/** The queue gauges' reads: due and unleased rows, the oldest due time. */
function workQueueTests(databases: StoreContractDatabases) {
  test('workQueue: depth counts due, unleased rows; countByStatus counts a status', async () => {
    await withOwnDatabase(databases, async (store) => {
      const now = Date.UTC(2031, 0, 1)
      const at = (ms: number) => iso(now + ms)
      const statuses = ['pending', 'unknown']
      expect(await store.workQueue.depth('order', statuses, at(0))).toEqual({
        due: 0,
        oldestDueAt: null,
      })
      const rows = [
        // due: never checked (its updatedAt counts), and checked long ago
        order({ updatedAt: at(-5_000), createdAt: at(-5_000) }),
        order({ status: 'unknown', nextCheckAt: at(-9_000) }),
        // not due yet, leased by a live lease, or in another status
        order({ nextCheckAt: at(1_000) }),
        order({ leaseOwner: 'w', leaseExpiresAt: at(10_000) }),
        order({ status: 'open' }),
        // an expired lease is due again
        order({
          leaseOwner: 'w',
          leaseExpiresAt: at(-1),
          updatedAt: at(-1_000),
          createdAt: at(-1_000),
        }),
      ]
      for (const r of rows) await store.orders.insert(r)
      expect(await store.workQueue.depth('order', statuses, at(0))).toEqual({
        due: 3,
        oldestDueAt: at(-9_000),
      })
      expect(await store.workQueue.depth('task', ['pending'], at(0))).toEqual({
        due: 0,
        oldestDueAt: null,
      })
      expect(await store.workQueue.countByStatus('order', 'unknown')).toBe(1)
      expect(await store.workQueue.countByStatus('order', 'pending')).toBe(4)
      expect(await store.workQueue.countByStatus('task', 'running')).toBe(0)
    })
  })
}

/** A claim tells who held each row it took over, never a free row. */
function takenOverTests(databases: StoreContractDatabases) {
  test('claim: onTakenOver names the worker whose lease was taken over', async () => {
    await withOwnDatabase(databases, async (store) => {
      const now = Date.UTC(2031, 0, 1)
      const free = order()
      const held = order()
      await store.orders.insert(free)
      await store.orders.insert(held)
      const claim = (workerId: string, at: number, limit = 10) => {
        const taken: [string, string][] = []
        return store.orders
          .claim({
            workerId,
            now: iso(at),
            leaseMs: 1_000,
            statuses: ['pending'],
            limit,
            onTakenOver: (id, from) => taken.push([id, from]),
          })
          .then((rows) => ({ rows, taken }))
      }
      // w1 takes both free rows: nobody held them
      const first = await claim('w1', now)
      expect(first.rows.map((r) => r.id).sort()).toEqual(
        [free.id, held.id].sort(),
      )
      expect(first.taken).toEqual([])
      // w1 gives one back; the other's lease expires
      await store.orders.update(
        free.id,
        { leaseOwner: null, leaseExpiresAt: null, updatedAt: iso(now) },
        { fence: first.rows.find((r) => r.id === free.id)?.fence ?? -1 },
      )
      const second = await claim('w2', now + 5_000)
      expect(second.rows).toHaveLength(2)
      expect(second.taken).toEqual([[held.id, 'w1']])
      // nothing due: nothing claimed, nobody told
      const third = await claim('w3', now + 5_500)
      expect(third).toEqual({ rows: [], taken: [] })
    })
  })
}
