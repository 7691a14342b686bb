import { randomUUID } from 'node:crypto'
import type { Store } from '@dn/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type CallResult,
  type CustomService,
  client,
  createTaskVia,
  expectError,
  flakyStore,
  keyRoutes,
  ORDERS,
  startCustomService,
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

const ALL_VENUES = ['hl', 'aster', 'lighter', 'lighter-mainnet'] as const

/** X-Request-Id and both rate-limit headers, as every key route sends. */
function expectKeyHeaders(res: CallResult, limit = '120'): void {
  const h = res.headers
  expect(h.get('x-request-id'), `${res.status} ${res.text}`).toMatch(UUID_RE)
  expect(h.get('x-ratelimit-limit'), `${res.status} ${res.text}`).toBe(limit)
  expect(h.get('x-ratelimit-remaining'), `${res.status} ${res.text}`).toMatch(
    /^(0|[1-9]\d*)$/,
  )
}

const send = (
  svc: { url: string },
  key: string | undefined,
  r: ReturnType<typeof keyRoutes>[number],
) =>
  call(svc, r.method, r.path, {
    ...(key ? { key } : {}),
    ...(r.body === undefined ? {} : { body: r.body }),
  })

describe.each(dialects())('HTTP edges (%s)', (dialect) => {
  const clock = testClock()
  let svc: TestService
  let h: TestOwner // headers checks
  let narrow: TestOwner // hl and aster only
  let r1: TestOwner // rate-limit story
  let r2: TestOwner // unaffected neighbour
  let r3: TestOwner // 429 on every route

  beforeAll(async () => {
    svc = await startTestService({ dialect, clock })
    h = await createOwnerWithKey(svc)
    narrow = await createOwnerWithKey(svc, {
      wallet: h.wallet,
      venues: ['hl', 'aster'],
    })
    r1 = await createOwnerWithKey(svc)
    r2 = await createOwnerWithKey(svc)
    r3 = await createOwnerWithKey(svc)
  })
  afterAll(() => svc?.close())

  it('GET /health answers {"ok":true} without credentials', async () => {
    const res = await call(svc, 'GET', '/health')
    expect([res.status, res.text]).toEqual([200, '{"ok":true}'])
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    expect(res.headers.get('x-request-id')).toMatch(UUID_RE)
    const withJunk = await call(svc, 'GET', '/health', {
      headers: { authorization: 'Bearer junk' },
    })
    expect([withJunk.status, withJunk.text]).toEqual([200, '{"ok":true}'])
  })

  it('GET /openapi.json is the 3.1.1 contract as a JSON object', async () => {
    const res = await call(svc, 'GET', '/openapi.json')
    expect(res.status).toBe(200)
    expect(res.body).toBeTypeOf('object')
    expect(Array.isArray(res.body)).toBe(false)
    expect(res.body.openapi).toBe('3.1.1')
    expect(res.body.info.version).toBe('1.2.0')
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining([
        TASKS,
        ORDERS,
        '/v1/requests',
        '/v1/perp/requests',
        '/health',
      ]),
    )
  })

  it('every key-route response carries X-Request-Id and rate-limit headers', async () => {
    const { get, post } = client(() => svc)
    const H = client(() => svc).as(h.apiKey)
    const id = await createTaskVia(svc, h.apiKey)
    const last = h.apiKey.at(-1) === 'A' ? 'B' : 'A'
    const wrongSecret = `${h.apiKey.slice(0, -1)}${last}`
    const text = { rawBody: '{}', headers: { 'content-type': 'text/plain' } }
    const responses = [
      [200, await H.get(TASKS)],
      [200, await H.get(`${TASKS}/${id}`)],
      [202, await H.post(`${TASKS}/${id}/cancel`, {})],
      [400, await H.get(`${TASKS}?limit=0`)],
      [401, await get(TASKS)],
      [401, await get(ORDERS, wrongSecret)],
      [403, await post(TASKS, narrow.apiKey, taskBody())],
      [404, await H.get(`${TASKS}/${randomUUID()}`)],
      [409, await H.post(`${TASKS}/${id}/cancel`, {})],
      [
        413,
        await H.post(ORDERS, undefined, { rawBody: `"${'x'.repeat(17e3)}"` }),
      ],
      [415, await H.post(ORDERS, undefined, text)],
      [200, await H.get('/v1/perp/requests')],
    ] as const
    expect(responses.map(([, r]) => r.status)).toEqual(
      responses.map(([s]) => s),
    )
    for (const [, res] of responses) expectKeyHeaders(res)
    const ids = responses.map(([, r]) => r.headers.get('x-request-id'))
    expect(new Set(ids).size).toBe(ids.length)
  })

  it('120 per minute per key and family; 429 with Retry-After; resets after 60 s', async () => {
    const remaining: number[] = []
    for (let i = 0; i < 120; i++) {
      const res = await call(svc, 'GET', TASKS, { key: r1.apiKey })
      expect(res.status).toBe(200)
      remaining.push(Number(res.headers.get('x-ratelimit-remaining')))
    }
    expect(remaining).toEqual(Array.from({ length: 120 }, (_, i) => 119 - i))
    const limited = await call(svc, 'GET', TASKS, { key: r1.apiKey })
    expectError(limited, 429, 'rate_limited')
    expectKeyHeaders(limited)
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0')
    const retryAfter = limited.headers.get('retry-after') ?? ''
    expect(retryAfter).toMatch(/^[1-9]\d*$/)
    expect(Number(retryAfter)).toBeLessThanOrEqual(60)
    const post = await call(svc, 'POST', TASKS, {
      key: r1.apiKey,
      body: taskBody(),
    })
    expectError(post, 429, 'rate_limited')
    expect(
      await svc.store.tasks.list({
        owner: r1.owner,
        venues: [...ALL_VENUES],
        limit: 10,
      }),
    ).toEqual([])

    const perp = await call(svc, 'GET', ORDERS, { key: r1.apiKey })
    expect(perp.status).toBe(200)
    expect(perp.headers.get('x-ratelimit-remaining')).toBe('119')
    const neighbour = await call(svc, 'GET', TASKS, { key: r2.apiKey })
    expect([
      neighbour.status,
      neighbour.headers.get('x-ratelimit-remaining'),
    ]).toEqual([200, '119'])

    clock.advance(59_999)
    expectError(
      await call(svc, 'GET', TASKS, { key: r1.apiKey }),
      429,
      'rate_limited',
    )
    clock.advance(1)
    const again = await call(svc, 'GET', TASKS, { key: r1.apiKey })
    expect(again.status).toBe(200)
    expect(again.headers.get('x-ratelimit-remaining')).toBe('119')
  })

  it('429 rate_limited on every key route once its family budget is spent', async () => {
    for (let i = 0; i < 120; i++) {
      expect(
        (await call(svc, 'GET', '/v1/requests', { key: r3.apiKey })).status,
      ).toBe(200)
      expect(
        (await call(svc, 'GET', '/v1/perp/requests', { key: r3.apiKey }))
          .status,
      ).toBe(200)
    }
    for (const route of keyRoutes()) {
      const res = await send(svc, r3.apiKey, route)
      expectError(res, 429, 'rate_limited')
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
      expectKeyHeaders(res)
    }
  })

  it('401 on every key route without a valid key', async () => {
    for (const route of keyRoutes()) {
      const res = await send(svc, undefined, route)
      expectError(res, 401, 'unauthorized')
      expectKeyHeaders(res)
    }
  })

  it('413 and 415 on every POST key route', async () => {
    for (const route of keyRoutes().filter((r) => r.method === 'POST')) {
      const big = await call(svc, 'POST', route.path, {
        key: h.apiKey,
        rawBody: JSON.stringify({ pad: 'x'.repeat(16_400) }),
      })
      expectError(big, 413, 'payload_too_large')
      const plain = await call(svc, 'POST', route.path, {
        key: h.apiKey,
        rawBody: JSON.stringify(route.body),
        headers: { 'content-type': 'text/plain' },
      })
      expectError(plain, 415, 'unsupported_media_type')
    }
  })

  it('405 for a wrong method on a known path, 404 route_not_found otherwise', async () => {
    const id = randomUUID()
    for (const [method, path, allow] of [
      ['DELETE', TASKS, 'GET, POST'],
      ['PUT', `${ORDERS}/${id}`, 'GET'],
      ['GET', `${TASKS}/${id}/cancel`, 'POST'],
      ['POST', '/health', 'GET'],
    ] as const) {
      const res = await call(svc, method, path, {
        key: h.apiKey,
        ...(method === 'POST' ? { body: {} } : {}),
      })
      expectError(res, 405, 'method_not_allowed')
      expect(res.headers.get('allow')).toBe(allow)
    }
    for (const path of [
      '/v1/nothing',
      '/v1/delta-neutral/taskz',
      `${ORDERS}/${id}/fill`,
      // `/` is the dashboard page now; a path under it is still unknown
      '/nothing',
    ]) {
      expectError(
        await call(svc, 'GET', path, { key: h.apiKey }),
        404,
        'route_not_found',
      )
    }
  })

  it('100 concurrent identical creates under one Idempotency-Key make one task', async () => {
    const many = await startTestService({ dialect, rateLimit: 1000 })
    try {
      const o = await createOwnerWithKey(many)
      const idem = randomUUID()
      const all = await Promise.all(
        Array.from({ length: 100 }, () =>
          call(many, 'POST', TASKS, { key: o.apiKey, idem, body: taskBody() }),
        ),
      )
      expect(all.map((r) => r.status)).toEqual(Array(100).fill(202))
      expect(new Set(all.map((r) => r.text)).size).toBe(1)
      expect(
        all.filter((r) => r.headers.get('idempotent-replayed') === 'true'),
      ).toHaveLength(99)
      const tasks = await many.store.tasks.list({
        owner: o.owner,
        venues: [...ALL_VENUES],
        limit: 10,
      })
      expect(tasks.map((t) => t.id)).toEqual([all[0]?.body.taskId])
      const logs = (await call(many, 'GET', '/v1/requests', { key: o.apiKey }))
        .body.requests
      expect(logs).toHaveLength(100)
      expect(
        logs.filter((l: { replayed: boolean }) => l.replayed),
      ).toHaveLength(99)
    } finally {
      await many.close()
    }
  })

  describe('503 service_unavailable when storage fails', () => {
    let flaky: ReturnType<typeof flakyStore> | undefined
    let down: CustomService
    let o: TestOwner
    beforeAll(async () => {
      down = await startCustomService({
        dialect,
        wrap: (s: Store) => {
          flaky = flakyStore(s)
          return flaky.store
        },
      })
      o = await createOwnerWithKey(down)
    })
    afterAll(() => down?.close())

    it.each([
      [
        'task, order, idempotency and log storage',
        ['tasks', 'orders', 'idempotency', 'requestLogs'],
      ],
      // a cached key is trusted only while the revocation mark is read
      ['API key storage (authentication)', ['apiKeys', 'revocationMark']],
    ] as const)('on every key route when %s fails', async (_name, failing) => {
      expect((await call(down, 'GET', TASKS, { key: o.apiKey })).status).toBe(
        200,
      )
      flaky?.fail(failing)
      try {
        const all: CallResult[] = []
        for (const route of keyRoutes()) {
          const res = await send(down, o.apiKey, route)
          all.push(res)
          expectError(res, 503, 'service_unavailable')
          expect(res.body.requestId).toBe(res.headers.get('x-request-id'))
          expect(res.text).not.toContain('simulated outage')
          expect(
            down.logs.some(
              (l) =>
                l.includes(res.body.requestId) &&
                l.includes('simulated outage'),
            ),
          ).toBe(true)
        }
        expect((await call(down, 'GET', '/health')).status).toBe(200)
        // the contract: every response of these routes carries the rate-limit headers
        for (const res of all) expectKeyHeaders(res)
      } finally {
        flaky?.heal()
      }
    })

    it('a cached key still authenticates while only the key table fails', async () => {
      expect((await call(down, 'GET', TASKS, { key: o.apiKey })).status).toBe(
        200,
      )
      // created, never used: not in the cache
      const fresh = await createOwnerWithKey(down)
      flaky?.fail(['apiKeys'])
      try {
        // the mark stands, so the key read before is still current
        expect((await call(down, 'GET', TASKS, { key: o.apiKey })).status).toBe(
          200,
        )
        // a key never read before must be read: that fails
        expectError(
          await call(down, 'GET', TASKS, { key: fresh.apiKey }),
          503,
          'service_unavailable',
        )
      } finally {
        flaky?.heal()
      }
    })
  })
})
