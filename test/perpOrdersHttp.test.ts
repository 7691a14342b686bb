import { randomUUID } from 'node:crypto'
import type { PerpOrderRecord } from '@dn/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  client,
  createOrderVia,
  createTaskVia,
  fails,
  limitOrder,
  marketOrder,
  nowIso,
  nulls,
  ORDERS,
  startCustomService,
  UUID_RE,
} from './support/httpFixtures.js'
import {
  createOwnerWithKey,
  dialects,
  startTestService,
  type TestOwner,
  type TestService,
  testClock,
} from './support/testService.js'

// biome-ignore format: a plain list of field names
const NULL_BEFORE_EXECUTION = ['limitPrice', 'requestedBase', 'averagePrice',
  'venueStatus', 'error', 'cancelRequestedAt', 'submittedAt', 'observedAt',
  'resolution']
// biome-ignore format: one body
const RESOLVE = { status: 'cancelled', filledBase: 0, averagePrice: null,
  evidence: 'venue order history shows no fill', confirmNoOpenOrder: true,
  confirmWorkersStopped: true }
const plus = (iso: string, s: number) =>
  new Date(Date.parse(iso) + s * 1000).toISOString()
/** `/v1/perp/orders/<id>[/<op>]` */
const O = (id: string, op?: string) => `${ORDERS}/${id}${op ? `/${op}` : ''}`
const orderIds = (res: { body: { orders: { orderId: string }[] } }) =>
  res.body.orders.map((o) => o.orderId)
const clean = (body: object) => JSON.parse(JSON.stringify(body))

describe.each(dialects())('perp order routes over HTTP (%s)', (dialect) => {
  const clock = testClock()
  const at = () => new Date(clock.now()).toISOString()
  const live = new Set<string>()
  const broken = new Set<string>()
  let svc: TestService // no venue order lookup configured
  let rsv: TestService // a lookup backed by `live` and `broken`
  let a: TestOwner // maxSizeUsd 1000
  let an: TestOwner // same wallet, hl and aster only
  let b: TestOwner
  let ra: TestOwner // on rsv
  let ra2: TestOwner // same wallet as ra, another key
  let rb: TestOwner
  let log1: TestOwner // request-log owners: made before the clock moves
  let log2: TestOwner
  const S = client(() => svc)
  const R = client(() => rsv)
  let A: ReturnType<typeof S.as>
  const set = (s: TestService, id: string, patch: Partial<PerpOrderRecord>) =>
    s.store.orders.update(id, { ...patch, updatedAt: nowIso() })
  const isLive = async (o: PerpOrderRecord) => {
    if (broken.has(o.id)) throw new Error('venue timeout')
    return live.has(o.id)
  }

  beforeAll(async () => {
    svc = await startTestService({ dialect, clock, rateLimit: 1000 })
    const venueOrders = { isLive }
    // its own database (PostgreSQL: own schema), so its workers are its own
    rsv = await startCustomService({ dialect, clock, venueOrders })
    a = await createOwnerWithKey(svc, { maxSizeUsd: 1000 })
    A = S.as(a.apiKey)
    an = await createOwnerWithKey(svc, {
      wallet: a.wallet,
      venues: ['hl', 'aster'],
    })
    b = await createOwnerWithKey(svc)
    ra = await createOwnerWithKey(rsv)
    ra2 = await createOwnerWithKey(rsv, { wallet: ra.wallet })
    rb = await createOwnerWithKey(rsv)
    log1 = await createOwnerWithKey(svc)
    log2 = await createOwnerWithKey(svc)
  })
  afterAll(async () => {
    await svc?.close()
    await rsv?.close()
  })

  it('market order: 202, then GET shows every PerpOrder field', async () => {
    const res = await A.post(ORDERS, marketOrder())
    expect(res.status).toBe(202)
    const id = res.body.orderId
    expect(res.body).toEqual({
      orderId: expect.stringMatching(UUID_RE),
      status: 'pending',
    })
    const got = await A.get(O(id))
    expect(got.status).toBe(200)
    // biome-ignore format: one resource
    expect(got.body).toStrictEqual({ order: {
      orderId: id, venue: 'hl', market: 'BTC', side: 'long',
      orderType: 'market', sizeBase: '0.001', timeInForce: 'ioc',
      slippageBps: 100, reduceOnly: false, status: 'pending', filledBase: '0',
      clientOrderId: `0x${id.replaceAll('-', '')}`, expiresAt: plus(at(), 60),
      createdAt: at(), updatedAt: at(), ...nulls(...NULL_BEFORE_EXECUTION),
    } })
    expect(got.body.order.clientOrderId).toMatch(/^0x[0-9a-f]{32}$/)
  })

  it('limit order: gtc and 3600 s by default; expirySeconds', async () => {
    const id = await createOrderVia(svc, a.apiKey, limitOrder())
    const o = (await A.get(O(id))).body.order
    expect(o).toMatchObject({
      ...nulls('limitPrice', 'requestedBase', 'averagePrice'),
      venue: 'aster',
      market: 'BTCUSDT',
      side: 'short',
      orderType: 'limit',
      sizeBase: '0.002',
      timeInForce: 'gtc',
      status: 'pending',
      expiresAt: plus(o.createdAt, 3600),
    })
    const ioc = limitOrder({ timeInForce: 'ioc' })
    const oi = (await A.get(O(await createOrderVia(svc, a.apiKey, ioc)))).body
    expect(oi.order.expiresAt).toBe(plus(oi.order.createdAt, 60))
    // biome-ignore format: one body
    const custom = marketOrder({ expirySeconds: 86_400, slippageBps: 0,
      side: 'short', reduceOnly: true })
    const oc = (await A.get(O(await createOrderVia(svc, a.apiKey, custom))))
      .body.order
    expect(oc).toMatchObject({
      slippageBps: 0,
      reduceOnly: true,
      side: 'short',
    })
    expect(oc.expiresAt).toBe(plus(oc.createdAt, 86_400))
  })

  it('GET list: pages within the grant; 400 for bad queries', async () => {
    const list = await A.get(`${ORDERS}?limit=3`)
    expect([list.status, list.body.orders.length]).toEqual([200, 3])
    const c = list.body.nextCursor
    expect(c).toEqual(expect.any(String))
    const next = await A.get(`${ORDERS}?limit=3&cursor=${c}`)
    expect(orderIds(next)).not.toContain(orderIds(list)[0])
    // biome-ignore format: a list of queries
    for (const q of ['limit=21', 'foo=1', 'status=open&status=pending',
      'updatedSince=yesterday', 'cursor=%3D%3D']) {
      await fails(A.get(`${ORDERS}?${q}`), '400 invalid_query')
    }
    const mismatch = `${ORDERS}?status=open&cursor=${c}`
    await fails(A.get(mismatch), '400 cursor_filter_mismatch')
    await fails(
      A.get(`${O(orderIds(list)[0] as string)}?x=1`),
      '400 invalid_query',
    )
  })

  // biome-ignore format: a table of cases
  it.each([
    ['limit without limitPrice', limitOrder({ limitPrice: undefined }), 'invalid_body'],
    ['market with limitPrice', marketOrder({ limitPrice: 100000 }), 'invalid_body'],
    ['market with gtc', marketOrder({ timeInForce: 'gtc' }), 'invalid_body'],
    ['limit with slippageBps', limitOrder({ slippageBps: 10 }), 'invalid_body'],
    ['slippageBps 5001', marketOrder({ slippageBps: 5001 }), 'invalid_body'],
    ['slippageBps 1.5', marketOrder({ slippageBps: 1.5 }), 'invalid_body'],
    ['expirySeconds 0', marketOrder({ expirySeconds: 0 }), 'invalid_body'],
    ['expirySeconds 86401', marketOrder({ expirySeconds: 86_401 }), 'invalid_body'],
    ['sizeBase 0', marketOrder({ sizeBase: 0 }), 'invalid_body'],
    ['sizeBase 1e14', marketOrder({ sizeBase: 1e14 }), 'invalid_body'],
    ['unknown field', marketOrder({ leverage: 5 }), 'invalid_body'],
    ['orderType stop', marketOrder({ orderType: 'stop' }), 'invalid_body'],
    ['off-tick limitPrice', limitOrder({ venue: 'hl', market: 'BTC', limitPrice: 100000.5 }), 'invalid_tick'],
    ['notional below USD 10', marketOrder({ sizeBase: 0.00009 }), 'below_venue_minimum'],
    ['below lighter min base', marketOrder({ venue: 'lighter', sizeBase: 0.00019 }), 'below_venue_minimum'],
    ['size rounding to 0', marketOrder({ sizeBase: 0.000001, reduceOnly: true }), 'below_venue_minimum'],
    ['unlisted market', marketOrder({ market: 'BTCUSDT' }), 'market_not_listed'],
    // key max 1000: 0.01 BTC at 100000 * (1 + 100 bps) = USD 1010
    ['risk at protection price', marketOrder({ sizeBase: 0.01 }), 'size_exceeds_key_limit'],
    ['risk at limit price', limitOrder({ venue: 'hl', market: 'BTC', side: 'long', sizeBase: 0.01, limitPrice: 100001 }), 'size_exceeds_key_limit'],
  ])('POST create: 400 for %s', async (_name, body, code) => {
    await fails(A.post(ORDERS, clean(body)), `400 ${code}`)
  })

  it('risk at the larger of mark and order price; reduceOnly under USD 10', async () => {
    // biome-ignore format: a list of accepted bodies
    for (const body of [
      marketOrder({ sizeBase: 0.01, slippageBps: 0 }), // risk 1000 at mark
      marketOrder({ sizeBase: 0.01, side: 'short' }), // protection below mark
      limitOrder({ venue: 'hl', market: 'BTC', sizeBase: 0.01, limitPrice: 99000 }),
      marketOrder({ sizeBase: 0.00005, reduceOnly: true }), // USD 5
      marketOrder({ sizeBase: 0.0001 }), // exactly USD 10
    ]) await createOrderVia(svc, a.apiKey, body)
  })

  it('POST create: 400 idempotency, 403, 409 bound and key reuse', async () => {
    const m = marketOrder()
    await fails(
      A.post(ORDERS, m, { idem: null }),
      '400 idempotency_key_required',
    )
    await fails(
      A.post(ORDERS, m, { idem: 'a b' }),
      '400 invalid_idempotency_key',
    )
    const lighter = marketOrder({ venue: 'lighter' })
    await fails(S.post(ORDERS, an.apiKey, lighter), '403 venue_not_granted')
    const half = await createOwnerWithKey(svc, { bound: ['hl', 'aster'] })
    const mainnet = marketOrder({ venue: 'lighter-mainnet' })
    const res = S.post(ORDERS, half.apiKey, mainnet)
    expect((await fails(res, '409 venue_not_bound')).body.issues).toEqual([
      expect.objectContaining({ venue: 'lighter-mainnet' }),
    ])
    const idem = { idem: randomUUID() }
    const first = await A.post(ORDERS, m, idem)
    const replay = await A.post(ORDERS, { ...m }, idem)
    expect([replay.status, replay.text]).toEqual([202, first.text])
    expect(replay.headers.get('idempotent-replayed')).toBe('true')
    const short = marketOrder({ side: 'short' })
    await fails(A.post(ORDERS, short, idem), '409 idempotency_key_reused')
  })

  it('cancel: pending → cancelled; open → cancel_queued; filled → 409', async () => {
    const p = await createOrderVia(svc, a.apiKey)
    const res = await A.post(O(p, 'cancel'), {})
    expect([res.status, res.body]).toEqual([
      202,
      { orderId: p, status: 'cancelled' },
    ])
    expect((await svc.store.orders.get(p))?.status).toBe('cancelled')
    await fails(A.post(O(p, 'cancel'), {}), '409 order_not_cancellable')

    const o = await createOrderVia(svc, a.apiKey)
    await set(svc, o, { status: 'open' })
    clock.advance(5)
    const q = await A.post(O(o, 'cancel'), {})
    expect([q.status, q.body]).toEqual([
      202,
      { orderId: o, status: 'cancel_queued' },
    ])
    const view = (await A.get(O(o))).body.order
    expect([view.status, view.cancelRequestedAt]).toEqual(['open', at()])

    const f = await createOrderVia(svc, a.apiKey)
    await set(svc, f, { status: 'filled', filledBase: '0.001' })
    await fails(A.post(O(f, 'cancel'), {}), '409 order_not_cancellable')
  })

  it('400 path id and body; 403 not granted; 404 other owner (BOLA)', async () => {
    const id = await createOrderVia(
      svc,
      a.apiKey,
      marketOrder({ venue: 'lighter' }),
    )
    const before = await svc.store.orders.get(id)
    for (const bad of ['x', id.toUpperCase()]) {
      await fails(A.get(O(bad)), '400 invalid_path_id')
      await fails(A.post(O(bad, 'cancel'), {}), '400 invalid_path_id')
      await fails(A.post(O(bad, 'resolve'), RESOLVE), '400 invalid_path_id')
    }
    await fails(A.post(O(id, 'cancel'), { now: true }), '400 invalid_body')
    const N = S.as(an.apiKey)
    await fails(N.post(O(id, 'cancel'), {}), '403 venue_not_granted')
    await fails(N.post(O(id, 'resolve'), RESOLVE), '403 venue_not_granted')
    await fails(N.get(O(id)), '404 order_not_found')
    expect(orderIds(await N.get(ORDERS))).not.toContain(id)
    const B = S.as(b.apiKey)
    await fails(B.get(O(id)), '404 order_not_found')
    await fails(B.post(O(id, 'cancel'), {}), '404 order_not_found')
    await fails(B.post(O(id, 'resolve'), RESOLVE), '404 order_not_found')
    expect(orderIds(await B.get(ORDERS))).toEqual([])
    expect(await svc.store.orders.get(id)).toEqual(before)
  })

  describe('resolve', () => {
    const unknown = async (
      filledBase = '0',
      averagePrice: string | null = null,
    ) => {
      const id = await createOrderVia(rsv, ra.apiKey)
      await set(rsv, id, { status: 'unknown', filledBase, averagePrice })
      return id
    }
    const resolve = (
      id: string,
      key: string,
      body: object = RESOLVE,
      idem?: string,
    ) => R.post(O(id, 'resolve'), key, body, idem ? { idem } : {})

    // biome-ignore format: a table of cases
    it.each([
      ['evidence of 9 characters', { evidence: '123456789' }],
      ['averagePrice null with filledBase > 0', { filledBase: 0.001 }],
      ['averagePrice with filledBase 0', { averagePrice: 100000 }],
      ['confirmNoOpenOrder false', { confirmNoOpenOrder: false }],
      ['confirmWorkersStopped false', { confirmWorkersStopped: false }],
      ['status open', { status: 'open' }],
      ['missing evidence', { evidence: undefined }],
    ])('400 invalid_body for %s', async (_name, over) => {
      const body = clean({ ...RESOLVE, ...over })
      await fails(resolve(await unknown(), ra.apiKey, body), '400 invalid_body')
    })

    it('409 for a pending order and for an unexpired unknown order', async () => {
      const id = await createOrderVia(rsv, ra.apiKey)
      await fails(resolve(id, ra.apiKey), '409 order_not_unknown')
      await set(rsv, id, { status: 'unknown' })
      await fails(resolve(id, ra.apiKey), '409 order_not_expired')
    })

    it('409 unfenced worker, lease, live venue order; 503 venue check', async () => {
      const id = await unknown()
      clock.advance(61_000)
      const w = { id: `w-${randomUUID()}`, startedAt: nowIso() }
      const worker = { ...w, heartbeatAt: w.startedAt, fencedAt: null }
      await rsv.store.workers.heartbeat(worker)
      await fails(resolve(id, ra.apiKey), '409 workers_not_fenced')
      await rsv.store.workers.heartbeat({ ...worker, fencedAt: nowIso() })
      const lease = new Date(clock.now() + 30_000).toISOString()
      await set(rsv, id, { leaseOwner: 'w', leaseExpiresAt: lease })
      await fails(resolve(id, ra.apiKey), '409 order_lease_active')
      await set(rsv, id, { leaseOwner: null, leaseExpiresAt: null })
      live.add(id)
      await fails(resolve(id, ra.apiKey), '409 venue_order_live')
      live.delete(id)
      broken.add(id)
      await fails(resolve(id, ra.apiKey), '503 venue_check_unavailable')
      broken.delete(id)
      expect((await rsv.store.orders.get(id))?.status).toBe('unknown')
      // a deployment without any venue order lookup
      const plain = await createOrderVia(svc, a.apiKey)
      const expiresAt = new Date(clock.now() - 1000).toISOString()
      await set(svc, plain, { status: 'unknown', expiresAt })
      await fails(
        A.post(O(plain, 'resolve'), RESOLVE),
        '503 venue_check_unavailable',
      )
    })

    it('200 records the resolution; GET shows it; a second resolve → 409', async () => {
      const id = await unknown('0.0004', '99990')
      clock.advance(61_000)
      // biome-ignore format: one body
      const body = { status: 'filled', filledBase: 0.001, averagePrice: 100010.5,
        evidence: 'venue trade export #42', confirmNoOpenOrder: true,
        confirmWorkersStopped: true }
      const idem = randomUUID()
      const res = await resolve(id, ra.apiKey, body, idem)
      expect(res.status).toBe(200)
      // biome-ignore format: one resource
      const resolution = { ...body, filledBase: '0.001', averagePrice: '100010.5',
        prior: { status: 'unknown', filledBase: '0.0004', averagePrice: '99990' },
        actorKeyId: ra.keyId, resolvedAt: at() }
      expect(res.body).toEqual({ orderId: id, status: 'filled', resolution })
      const o = (await R.get(O(id), ra.apiKey)).body.order
      expect(o).toMatchObject({
        status: 'filled',
        filledBase: '0.001',
        averagePrice: '100010.5',
        resolution,
      })
      const replay = await resolve(id, ra.apiKey, body, idem)
      expect([replay.status, replay.text]).toEqual([200, res.text])
      expect(replay.headers.get('idempotent-replayed')).toBe('true')
      await fails(resolve(id, ra2.apiKey, body), '409 order_not_unknown')
      await fails(resolve(id, rb.apiKey, body), '404 order_not_found')
    })

    it('409 filled_base_decrease below the recorded fill', async () => {
      const id = await unknown('0.0005', '100000')
      clock.advance(61_000)
      // biome-ignore format: one body
      const less = { ...RESOLVE, status: 'filled', filledBase: 0.0004,
        averagePrice: 100000 }
      await fails(resolve(id, ra.apiKey, less), '409 filled_base_decrease')
      await fails(resolve(id, ra.apiKey), '409 filled_base_decrease')
      expect((await rsv.store.orders.get(id))?.resolution).toBeNull()
    })
  })

  describe('request logs', () => {
    it('perp log: newest first, replays, order ids; tasks log apart', async () => {
      const L = S.as(log1.apiKey)
      const sent: { id: string; at: string }[] = []
      const send = async (path: string, body: unknown, idem?: string) => {
        clock.advance(1)
        const res = await L.post(path, body, idem ? { idem } : {})
        sent.push({ id: res.headers.get('x-request-id') ?? '', at: at() })
        return res
      }
      const idem = randomUUID()
      const order = (await send(ORDERS, marketOrder(), idem)).body.orderId
      await send(ORDERS, marketOrder(), idem)
      await send(O(order, 'cancel'), {})
      await send(O(order, 'cancel'), { x: 1 })
      await send(ORDERS, marketOrder({ sizeBase: 0.00001 }))
      clock.advance(1)
      const taskId = await createTaskVia(svc, log1.apiKey)
      const res = await L.get('/v1/perp/requests')
      expect(res.status).toBe(200)
      const row = (i: number, action: string, path: string, extra: object) => ({
        request_id: sent[i]?.id,
        created_at: sent[i]?.at,
        action,
        path,
        task_id: null,
        order_id: order,
        http_status: 202,
        error_code: null,
        replayed: false,
        ...extra,
      })
      // biome-ignore format: a table of rows
      expect(res.body.requests).toEqual([
        row(4, 'order.create', ORDERS, { order_id: null, http_status: 400, error_code: 'below_venue_minimum' }),
        row(3, 'order.cancel', O(order, 'cancel'), { http_status: 400, error_code: 'invalid_body' }),
        row(2, 'order.cancel', O(order, 'cancel'), {}),
        row(1, 'order.create', ORDERS, { replayed: true }),
        row(0, 'order.create', ORDERS, {}),
      ])
      const strategy = (await L.get('/v1/requests')).body.requests
      // biome-ignore format: one row
      expect(strategy).toEqual([expect.objectContaining({ action: 'task.create',
        task_id: taskId, order_id: null, http_status: 202, replayed: false })])
      await fails(L.get('/v1/requests?limit=5'), '400 invalid_query')
      await fails(L.get('/v1/perp/requests?limit=5'), '400 invalid_query')
    })

    it('keeps only the latest 100 per key and family', async () => {
      const L = S.as(log2.apiKey)
      const ids: string[] = []
      for (let i = 0; i < 105; i++) {
        clock.advance(1)
        const res = L.post(O(randomUUID(), 'cancel'), {})
        ids.push(
          (await fails(res, '404 order_not_found')).headers.get(
            'x-request-id',
          ) ?? '',
        )
      }
      const res = await L.get('/v1/perp/requests')
      const got = res.body.requests.map(
        (r: { request_id: string }) => r.request_id,
      )
      expect(got).toEqual(ids.slice(5).reverse())
    })
  })
})
