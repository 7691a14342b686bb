import { randomBytes, randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { ApiKeyRecord } from '../domain/apiKey.js'
import type { IdempotencyRecord } from '../domain/idempotency.js'
import type { PerpOrderRecord } from '../domain/perpOrder.js'
import type { RequestFamily, RequestLogRecord } from '../domain/requestLog.js'
import type { TaskRecord } from '../domain/task.js'
import type { VenueId } from '../domain/venue.js'
import type { VenueBindingRecord } from '../domain/venueBinding.js'
import type { ListFilter, Store } from './store.js'

/**
 * The behaviour every {@link Store} must show, whatever the database. Each
 * test makes its own owners, ids and buckets, so the suite can share a
 * database with other runs.
 * @param name shown in the test names
 * @param create opens a store; called once, closed after the suite
 */
export function runStoreContract(
  name: string,
  create: () => Promise<Store>,
): void {
  describe(`${name}: store contract`, () => {
    let store: Store
    beforeAll(async () => {
      store = await create()
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
    idempotencyTests(s)
    requestLogTests(s)
    rateLimitTests(s)
    nonceAndWorkerTests(s)
    transactionTests(s)
  })
}

type GetStore = () => Store

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

function task(over: Partial<TaskRecord> = {}): TaskRecord {
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
    leaseOwner: null,
    leaseExpiresAt: null,
    fence: 0,
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
    observedAt: null,
    expiresAt: iso(at + 60_000),
    createdAt: iso(at),
    updatedAt: iso(at),
    resolution: null,
    leaseOwner: null,
    leaseExpiresAt: null,
    fence: 0,
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
      leaseOwner: 'worker-1',
      leaseExpiresAt: iso(at + 7),
      fence: 4,
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
    const updated = await store().tasks.update(t.id, {
      status: 'running',
      longSize: '1.2300',
      error: null,
      resizeRequest,
      autoClose: false,
      updatedAt,
    })
    const expected: TaskRecord = {
      ...t,
      status: 'running',
      longSize: '1.23',
      error: null,
      resizeRequest,
      autoClose: false,
      updatedAt,
    }
    expect(updated).toEqual(expected)
    expect(await store().tasks.get(t.id)).toEqual(expected)
    const cleared = await store().tasks.update(t.id, {
      resizeRequest: null,
      updatedAt,
    })
    expect(cleared).toEqual({ ...expected, resizeRequest: null })
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
      await store().requestLogs.insert(log, 5)
    }
    for (const log of strategy) await store().requestLogs.insert(log, 5)
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

  test('requestLogs: pruning breaks createdAt ties by id', async () => {
    const keyId = randomUUID()
    const t = baseMs()
    const logs = [0, 1, 2].map(() => requestLog(keyId, 'perp', t))
    for (const log of logs) await store().requestLogs.insert(log, 2)
    const kept = ids(logs).sort().reverse().slice(0, 2)
    expect(ids(await store().requestLogs.list(keyId, 'perp', 10))).toEqual(kept)
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
    const find = async () => (await workers.list()).find((w) => w.id === id)
    const first = {
      id,
      startedAt: iso(t),
      heartbeatAt: iso(t),
      fencedAt: null,
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
            requestLog(r.apiKeyId, 'strategy', baseMs()),
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
