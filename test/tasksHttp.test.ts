import { randomBytes, randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  client,
  createTaskVia,
  fails,
  nowIso,
  nulls,
  revokeKeyRaw,
  TASKS,
  taskBody,
  UUID_RE,
} from './support/httpFixtures.js'
import {
  call,
  createOwnerWithKey,
  dialects,
  startTestService,
  type TestOwner,
  type TestService,
  testClock,
} from './support/testService.js'

const ALL = ['hl', 'aster', 'lighter', 'lighter-mainnet'] as const
// biome-ignore format: a plain list of field names
const NULLABLE = ['longSize', 'shortSize', 'longEntry', 'shortEntry',
  'longPrice', 'shortPrice', 'longLeverage', 'shortLeverage', 'longMarginMode',
  'shortMarginMode', 'closeReason', 'error', 'closeRequestedAt',
  'pendingReason', 'fundingApyNow']
/** What a task shows before anything filled (additive field `pnl`). */
const leg = {
  realizedUsd: '0',
  unrealizedUsd: '0',
  feesUsd: '0',
  builderFeesUsd: '0',
  entryPrice: null,
  exitPrice: null,
}
const NO_PNL = {
  long: leg,
  short: leg,
  realizedUsd: '0',
  unrealizedUsd: '0',
  fundingUsd: '0',
  feesUsd: '0',
  totalUsd: '0',
}
const ids = (res: { body: { tasks: { taskId: string }[] } }) =>
  res.body.tasks.map((t) => t.taskId)
/** `/v1/delta-neutral/tasks/<id>[/<op>]` */
const T = (id: string, op?: string) => `${TASKS}/${id}${op ? `/${op}` : ''}`
const OPS = [
  ['cancel', {}],
  ['close', {}],
  ['resize', { longTargetBase: 0.002 }],
] as const

describe.each(dialects())('task routes over HTTP (%s)', (dialect) => {
  const clock = testClock()
  const at = () => new Date(clock.now()).toISOString()
  let svc: TestService
  let a: TestOwner // all four venues, maxSizeUsd 100000
  let an: TestOwner // same wallet, key grants hl and aster only
  let b: TestOwner // another owner
  let p: TestOwner // paging
  let half: TestOwner // lighter not bound
  const { get, post, as } = client(() => svc)
  let A: ReturnType<typeof as> // requests with a's key
  const running = (id: string) =>
    svc.store.tasks.update(id, { status: 'running', updatedAt: nowIso() })
  const count = async () =>
    (await svc.store.tasks.list({ owner: a.owner, venues: ALL, limit: 999 }))
      .length

  beforeAll(async () => {
    svc = await startTestService({ dialect, clock, rateLimit: 1000 })
    a = await createOwnerWithKey(svc)
    A = as(a.apiKey)
    an = await createOwnerWithKey(svc, {
      wallet: a.wallet,
      venues: ['hl', 'aster'],
    })
    b = await createOwnerWithKey(svc)
    p = await createOwnerWithKey(svc)
    half = await createOwnerWithKey(svc, { bound: ['hl', 'aster'] })
  })
  afterAll(() => svc?.close())

  it('401 for missing, malformed, unknown, other-env, revoked keys', async () => {
    const [, id, secret] =
      /^dn_test_([0-9a-f-]{36})\.(.+)$/.exec(a.apiKey) ?? []
    expect(id).toBe(a.keyId)
    const bad = [
      'Bearer',
      'Basic abc',
      `Bearer ${a.apiKey}x`,
      `Bearer dn_test_${randomUUID()}.${secret}`,
      `Bearer dn_test_${id}.${randomBytes(32).toString('base64url')}`,
      `Bearer dn_local_${id}.${secret}`,
      `bearer ${a.apiKey} extra`,
    ]
    await fails(get(TASKS), '401 unauthorized')
    for (const authorization of bad) {
      const headers = { authorization }
      await fails(call(svc, 'GET', TASKS, { headers }), '401 unauthorized')
    }
    const temp = await createOwnerWithKey(svc, { wallet: a.wallet })
    expect((await get(TASKS, temp.apiKey)).status).toBe(200)
    expect((await revokeKeyRaw(svc, a.wallet, temp.keyId)).status).toBe(200)
    await fails(get(TASKS, temp.apiKey), '401 unauthorized')
    await fails(post(TASKS, temp.apiKey, taskBody()), '401 unauthorized')
  })

  // biome-ignore format: a table of queries
  it.each([
    'limit=0', 'limit=21', 'limit=abc', 'limit=1.5', 'status=Running',
    'status=', 'updatedSince=2024-01-01T00:00:00Z',
    'updatedSince=2024-01-01T00:00:00.1234567Z',
    'updatedSince=2024-02-30T00:00:00.000Z', 'cursor=a%2Fb',
    `cursor=${'a'.repeat(1025)}`, 'foo=1', 'limit=1&limit=2',
  ])('GET list: 400 invalid_query for ?%s', async (query) => {
    await fails(A.get(`${TASKS}?${query}`), '400 invalid_query')
  })

  it('GET list: pages 25 tasks newest first, no duplicates or gaps', async () => {
    const P = as(p.apiKey)
    const created: string[] = []
    for (let i = 0; i < 25; i++) {
      clock.advance(1)
      created.push(await createTaskVia(svc, p.apiKey))
    }
    const newest = [...created].reverse()
    const seen: string[] = []
    const sizes: number[] = []
    let cursor: string | null = null
    do {
      const q: string = cursor ? `&cursor=${cursor}` : ''
      const res = await P.get(`${TASKS}?limit=10${q}`)
      expect(res.status).toBe(200)
      sizes.push(res.body.tasks.length)
      seen.push(...ids(res))
      cursor = res.body.nextCursor
      if (cursor !== null) expect(cursor).toMatch(/^[A-Za-z0-9_-]{1,1024}$/)
    } while (cursor !== null)
    expect(sizes).toEqual([10, 10, 5])
    expect(seen).toEqual(newest)
    const all = await P.get(TASKS)
    expect(ids(all)).toEqual(newest.slice(0, 20))
    expect(all.body.nextCursor).toEqual(expect.any(String))

    const c = (await P.get(`${TASKS}?limit=10`)).body.nextCursor
    const mismatch = `${TASKS}?limit=10&cursor=${c}&status=pending`
    await fails(P.get(mismatch), '400 cursor_filter_mismatch')
    await fails(P.get(`${TASKS}?cursor=abc`), '400 invalid_cursor')
    const pend = `${TASKS}?limit=10&status=pending`
    const pc = (await P.get(pend)).body.nextCursor
    expect(ids(await P.get(`${pend}&cursor=${pc}`))).toEqual(
      newest.slice(10, 20),
    )
    const unfiltered = `${TASKS}?limit=10&cursor=${pc}`
    await fails(P.get(unfiltered), '400 cursor_filter_mismatch')
    const none = await P.get(`${TASKS}?status=running`)
    expect(none.body).toEqual({ tasks: [], nextCursor: null })
    const sixDigits = '2000-01-01T00:00:00.123456Z'
    const micro = await P.get(`${TASKS}?updatedSince=${sixDigits}`)
    expect([micro.status, micro.body.tasks.length]).toEqual([200, 20])
    const t20 = (await P.get(T(created[19] as string))).body.task
    const since = await P.get(`${TASKS}?updatedSince=${t20.updatedAt}`)
    expect(ids(since)).toEqual(newest.slice(0, 6))
  })

  it('GET list: only tasks whose both venues the key grants', async () => {
    const hlLighter = await createTaskVia(svc, a.apiKey)
    const hlAster = await createTaskVia(svc, a.apiKey, {
      shortVenue: 'aster',
      shortMarket: 'BTCUSDT',
    })
    const narrow = ids(await get(TASKS, an.apiKey))
    expect(narrow).toContain(hlAster)
    expect(narrow).not.toContain(hlLighter)
    expect(ids(await A.get(TASKS))).toEqual(
      [hlAster, hlLighter].sort().reverse(),
    )
    await fails(get(T(hlLighter), an.apiKey), '404 task_not_found')
    expect(ids(await get(TASKS, b.apiKey))).toEqual([])
  })

  it('POST create: 202 pending, then GET shows every Task field', async () => {
    const opts = { liqProtectionPct: 5, sizeMismatchPct: 2.5, minFundingApy: 3 }
    const res = await A.post(TASKS, taskBody(opts))
    expect(res.status).toBe(202)
    expect(res.headers.get('idempotent-replayed')).toBeNull()
    expect(res.body).toEqual({
      taskId: expect.stringMatching(UUID_RE),
      status: 'pending',
    })
    const got = await A.get(T(res.body.taskId))
    expect(got.status).toBe(200)
    // biome-ignore format: one resource
    expect(got.body).toStrictEqual({ task: {
      taskId: res.body.taskId, longVenue: 'hl', shortVenue: 'lighter',
      longMarket: 'BTC', shortMarket: 'BTC', sizeUsd: '100', status: 'pending',
      liqProtectionPct: '5', sizeMismatchPct: '2.5', fundingUsd: '0',
      createdAt: at(), updatedAt: at(), ...nulls(...NULLABLE), pnl: NO_PNL,
      settling: false,
    } })
    // biome-ignore format: one body
    const other = { longVenue: 'aster', longMarket: 'ETHUSDT',
      shortVenue: 'lighter-mainnet', shortMarket: 'ETH', sizeUsd: 250.5 }
    const id = await createTaskVia(svc, a.apiKey, other)
    expect((await A.get(T(id))).body.task).toMatchObject({
      ...other,
      sizeUsd: '250.5',
      liqProtectionPct: null,
      sizeMismatchPct: null,
    })
  })

  // biome-ignore format: a table of cases
  it.each([
    ['unknown field', { leverage: 3 }, 'invalid_body'],
    ['missing field', { shortMarket: undefined }, 'invalid_body'],
    ['sizeUsd 9.99', { sizeUsd: 9.99 }, 'invalid_body'],
    ['sizeUsd 1e14', { sizeUsd: 1e14 }, 'invalid_body'],
    ['sizeUsd as a string', { sizeUsd: '100' }, 'invalid_body'],
    ['same venues', { shortVenue: 'hl' }, 'invalid_body'],
    ['unknown venue', { shortVenue: 'binance' }, 'invalid_body'],
    ['liqProtectionPct 0', { liqProtectionPct: 0 }, 'invalid_body'],
    ['liqProtectionPct 100.1', { liqProtectionPct: 100.1 }, 'invalid_body'],
    ['sizeMismatchPct 0.4', { sizeMismatchPct: 0.4 }, 'invalid_body'],
    ['minFundingApy -1', { minFundingApy: -1 }, 'invalid_body'],
    ['maxSpreadBps 0', { maxSpreadBps: 0 }, 'invalid_body'],
    ['unlisted market', { shortMarket: 'BTCUSDT' }, 'market_not_listed'],
    ['sizeUsd above key max', { sizeUsd: 100_000.01 }, 'size_exceeds_key_limit'],
    ['below lighter min base', { sizeUsd: 15 }, 'below_venue_minimum'],
  ])('POST create: 400 for %s', async (_name, over, code) => {
    const before = await count()
    const body = JSON.parse(JSON.stringify(taskBody(over)))
    await fails(A.post(TASKS, body), `400 ${code}`)
    expect(await count()).toBe(before)
  })

  it('POST create: 400 for bad JSON and bad Idempotency-Keys', async () => {
    const raw = { rawBody: '{"a":' }
    await fails(A.post(TASKS, undefined, raw), '400 invalid_json')
    await fails(A.post(TASKS, [taskBody()]), '400 invalid_body')
    const body = taskBody()
    const none = { idem: null }
    await fails(A.post(TASKS, body, none), '400 idempotency_key_required')
    for (const idem of ['', 'a b', 'x'.repeat(129), 'tab\tkey']) {
      await fails(A.post(TASKS, body, { idem }), '400 invalid_idempotency_key')
    }
    const max = { idem: '~'.repeat(128) }
    expect((await A.post(TASKS, body, max)).status).toBe(202)
  })

  it('POST create: 400 for a 130-char quoted Idempotency-Key', async () => {
    // contract: Idempotency-Key length 1..128
    const idem = { idem: `"${'q'.repeat(128)}"` }
    await fails(A.post(TASKS, taskBody(), idem), '400 invalid_idempotency_key')
  })

  it('POST create: 403 not granted, 404 route, 409 venue_not_bound', async () => {
    const body = taskBody()
    await fails(post(TASKS, an.apiKey, body), '403 venue_not_granted')
    await fails(A.post(`${TASKS}x`, body), '404 route_not_found')
    await fails(A.post(T(randomUUID(), 'open'), {}), '404 route_not_found')
    const res = await fails(
      post(TASKS, half.apiKey, body),
      '409 venue_not_bound',
    )
    expect(res.body.issues).toEqual([
      expect.objectContaining({ venue: 'lighter' }),
    ])
    const hlAster = taskBody({ shortVenue: 'aster', shortMarket: 'BTCUSDT' })
    expect((await post(TASKS, half.apiKey, hlAster)).status).toBe(202)
  })

  it('POST create: replay with reordered keys; 409 for another body', async () => {
    const idem = { idem: `k-${randomUUID()}` }
    const body = taskBody()
    const first = await A.post(TASKS, body, idem)
    expect(first.status).toBe(202)
    const reordered = Object.fromEntries(Object.entries(body).reverse())
    const again = await A.post(TASKS, reordered, idem)
    expect([again.status, again.text]).toEqual([202, first.text])
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    // the owner's other key shares the idempotency scope
    expect((await post(TASKS, an.apiKey, body, idem)).text).toBe(first.text)
    const changed = { ...body, sizeUsd: 101 }
    await fails(A.post(TASKS, changed, idem), '409 idempotency_key_reused')
    const cancel = T(first.body.taskId, 'cancel')
    await fails(A.post(cancel, {}, idem), '409 idempotency_key_reused')
    expect((await svc.store.tasks.get(first.body.taskId))?.status).toBe(
      'pending',
    )
  })

  it('POST create: 413 over 16384 bytes, 415 unless JSON', async () => {
    const pad = (n: number) => ({
      rawBody: JSON.stringify({ ...taskBody(), pad: 'x'.repeat(n) }),
    })
    const base = pad(0).rawBody.length
    const big = pad(16_385 - base)
    await fails(A.post(TASKS, undefined, big), '413 payload_too_large')
    const max = pad(16_384 - base)
    await fails(A.post(TASKS, undefined, max), '400 invalid_body')
    const text = {
      rawBody: JSON.stringify(taskBody()),
      headers: { 'content-type': 'text/plain' },
    }
    await fails(A.post(TASKS, undefined, text), '415 unsupported_media_type')
    await fails(A.post(TASKS), '415 unsupported_media_type')
    const ct = 'application/json; charset=utf-8'
    const utf8 = { headers: { 'content-type': ct } }
    expect((await A.post(TASKS, taskBody(), utf8)).status).toBe(202)
  })

  it('cancel: pending → 202 cancelled; again → 409', async () => {
    const id = await createTaskVia(svc, a.apiKey)
    const res = await A.post(T(id, 'cancel'), {})
    expect(res.status).toBe(202)
    expect(res.body).toEqual({ taskId: id, status: 'cancelled' })
    expect((await A.get(T(id))).body.task.status).toBe('cancelled')
    await fails(A.post(T(id, 'cancel'), {}), '409 task_not_cancellable')
    await fails(A.post(T(id, 'close'), {}), '409 task_not_running')
  })

  it('400 bad path id, body or query; 403 for an ungranted venue', async () => {
    const id = await createTaskVia(svc, a.apiKey)
    for (const bad of ['nope', id.toUpperCase(), `${id}0`]) {
      await fails(A.get(T(bad)), '400 invalid_path_id')
      for (const [op, body] of OPS) {
        await fails(A.post(T(bad, op), body), '400 invalid_path_id')
      }
    }
    await fails(A.get(`${T(id)}?x=1`), '400 invalid_query')
    for (const op of ['cancel', 'close']) {
      await fails(A.post(T(id, op), { reason: 'x' }), '400 invalid_body')
      await fails(A.post(`${T(id, op)}?x=1`, {}), '400 invalid_query')
    }
    for (const [op, body] of OPS) {
      await fails(post(T(id, op), an.apiKey, body), '403 venue_not_granted')
    }
    expect((await svc.store.tasks.get(id))?.status).toBe('pending')
  })

  it("BOLA: another owner's key gets 404 everywhere, changes nothing", async () => {
    const id = await createTaskVia(svc, a.apiKey)
    await running(id)
    const before = await svc.store.tasks.get(id)
    await fails(get(T(id), b.apiKey), '404 task_not_found')
    for (const [op, body] of OPS) {
      await fails(post(T(id, op), b.apiKey, body), '404 task_not_found')
    }
    expect(await svc.store.tasks.get(id)).toEqual(before)
    await fails(A.get(T(randomUUID())), '404 task_not_found')
    await fails(A.post(T(randomUUID(), 'cancel'), {}), '404 task_not_found')
  })

  it('close: pending → 409; running → 202 close_queued; resize → 409', async () => {
    const id = await createTaskVia(svc, a.apiKey)
    await fails(A.post(T(id, 'close'), {}), '409 task_not_running')
    await running(id)
    clock.advance(7)
    const res = await A.post(T(id, 'close'), {})
    expect(res.status).toBe(202)
    expect(res.body).toEqual({ taskId: id, status: 'close_queued' })
    const task = (await A.get(T(id))).body.task
    expect([task.status, task.closeRequestedAt]).toEqual(['running', at()])
    const resize = { longTargetBase: 0.002 }
    await fails(A.post(T(id, 'resize'), resize), '409 close_queued')
    expect((await svc.store.tasks.get(id))?.resizeRequest).toBeNull()
  })

  it('resize: running → 202 resizing; target and state rules', async () => {
    const id = await createTaskVia(svc, a.apiKey)
    const path = T(id, 'resize')
    const small = { longTargetBase: 0.002 }
    await fails(A.post(path, small), '409 task_not_running')
    await running(id)
    // biome-ignore format: a list of bodies
    const invalid = [{}, { disableSizeMismatchAutoClose: true },
      { longTargetBase: 0 }, { shortTargetBase: 1, x: 1 }]
    for (const body of invalid)
      await fails(A.post(path, body), '400 invalid_body')
    // hl BTC at mark 100000: 1.00001 BTC is USD 100001 > the key's 100000
    const tooBig = { longTargetBase: 1.00001 }
    await fails(A.post(path, tooBig), '400 size_exceeds_key_limit')
    const tiny = { shortTargetBase: 0.0001 } // lighter BTC min base 0.0002
    await fails(A.post(path, tiny), '400 below_venue_minimum')
    const res = await A.post(path, {
      longTargetBase: 0.002,
      shortTargetBase: 1,
    })
    expect(res.status).toBe(202)
    expect(res.body).toEqual({ taskId: id, status: 'resizing' })
    expect((await svc.store.tasks.get(id))?.resizeRequest).toMatchObject({
      longTargetBase: '0.002',
      shortTargetBase: '1',
    })
    expect((await A.get(T(id))).body.task.status).toBe('resizing')
    const next = { longTargetBase: 0.003 }
    await fails(A.post(path, next), '409 owner_operation_in_progress')
  })

  it('resize: 503 resize_unavailable when WORKER_RESIZE is off', async () => {
    const off = await startTestService({ dialect, workerResize: false })
    try {
      const o = await createOwnerWithKey(off)
      const id = await createTaskVia(off, o.apiKey)
      const patch = { status: 'running' as const, updatedAt: nowIso() }
      await off.store.tasks.update(id, patch)
      const res = client(() => off).post(T(id, 'resize'), o.apiKey, {
        longTargetBase: 0.002,
      })
      await fails(res, '503 resize_unavailable')
      expect((await off.store.tasks.get(id))?.status).toBe('running')
    } finally {
      await off.close()
    }
  })
})
