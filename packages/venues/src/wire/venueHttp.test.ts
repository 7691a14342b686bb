import {
  createRequestBudget,
  type RequestBudget,
  UncertainSubmissionError,
  VenueUnavailableError,
} from '@dn/core'
import { afterEach, describe, expect, test } from 'vitest'
import {
  closedPort,
  type FaultServer,
  startFaultPeer,
} from './testing/loopbackFaults.js'
import {
  budgetCharges,
  createVenueHttp,
  type VenueAnswer,
  type VenueProtocol,
  type VenueRequest,
} from './venueHttp.js'

const READ: VenueRequest = {
  method: 'GET',
  path: '/info',
  query: 'type=meta&coin=BTC',
  kind: 'read',
  priority: 'routine',
  charges: [{ limit: 'weight', weight: 2 }],
}

const WRITE: VenueRequest = {
  method: 'POST',
  path: '/exchange',
  body: { contentType: 'application/json', text: '{"action":"order"}' },
  kind: 'write',
  priority: 'order',
  charges: [
    { limit: 'weight', weight: 1 },
    { limit: 'orders', weight: 1, account: '0xabc' },
  ],
}

type Seen = {
  request: VenueRequest
  answer: VenueAnswer
  uncertain: (msg: string) => Error
}

/**
 * createVenueHttp over a scripted fetch and a real budget: capacity 20
 * weight and 4 orders a minute, half of it ours (orders 10, routine 7).
 */
function scripted(
  answers: (() => Response | Promise<Response>)[],
  protocol: Partial<VenueProtocol<Seen>> = {},
  timeout = 1_000,
) {
  let now = 1_000_000
  const clock = { now: () => now }
  const budget = createRequestBudget({
    name: 'test',
    limits: [
      { id: 'weight', capacity: 20, windowMs: 60_000 },
      { id: 'orders', capacity: 4, windowMs: 60_000 },
    ],
    clock,
  })
  const calls: {
    url: string
    init: RequestInit | undefined
    usedBefore: ReturnType<RequestBudget['usage']>
  }[] = []
  const settled: { request: VenueRequest; answer: VenueAnswer }[] = []
  const limited: VenueAnswer[] = []
  const send = createVenueHttp<Seen>(
    {
      venue: 'testvenue',
      rateLimited: (answer) => {
        limited.push(answer)
        return answer.status === 429 ? 30_000 : null
      },
      settle: (request, answer, b) => {
        expect(b).toBe(budget)
        settled.push({ request, answer })
      },
      read: (request, answer, uncertain) => ({ request, answer, uncertain }),
      ...protocol,
    },
    {
      baseUrl: 'https://venue.example//',
      timeout,
      budget,
      fetchFn: async (url, init) => {
        calls.push({ url: String(url), init, usedBefore: budget.usage() })
        const next = answers.shift()
        if (!next) throw new Error('no scripted answer')
        return next()
      },
    },
  )
  return {
    send,
    calls,
    budget,
    settled,
    limited,
    advance: (ms: number) => {
      now += ms
    },
  }
}

const json = (status: number, body: unknown, headers = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  })

const socketError = (code: string) =>
  Object.assign(new TypeError('fetch failed'), {
    cause: Object.assign(new Error(code), { code }),
  })

const caught = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a rejection')
    },
    (e: unknown) => e as Error,
  )

describe('createVenueHttp', () => {
  test('default: a GET sends the query as given, no body, no content-type', async () => {
    const t = scripted([() => json(200, { ok: 1 })])
    await t.send(READ)
    expect(t.calls).toHaveLength(1)
    expect(t.calls[0]?.url).toBe(
      'https://venue.example/info?type=meta&coin=BTC',
    )
    expect(t.calls[0]?.init?.method).toBe('GET')
    expect(t.calls[0]?.init?.body).toBeUndefined()
    expect(t.calls[0]?.init?.headers).toEqual({})
    expect(t.calls[0]?.init?.signal).toBeInstanceOf(AbortSignal)
  })

  test('default: a POST sends the body and its content-type byte for byte', async () => {
    const t = scripted([() => json(200, {})])
    await t.send({ ...WRITE, headers: { 'x-api-key': 'k' } })
    expect(t.calls[0]?.url).toBe('https://venue.example/exchange')
    expect(t.calls[0]?.init?.method).toBe('POST')
    expect(t.calls[0]?.init?.body).toBe('{"action":"order"}')
    expect(t.calls[0]?.init?.headers).toEqual({
      'content-type': 'application/json',
      'x-api-key': 'k',
    })
  })

  test('edge: an empty query adds no `?`', async () => {
    const t = scripted([() => json(200, {}), () => json(200, {})])
    await t.send({ ...READ, query: '' })
    await t.send({ ...READ, query: undefined })
    expect(t.calls.map((c) => c.url)).toEqual([
      'https://venue.example/info',
      'https://venue.example/info',
    ])
  })

  test('behavior: read() gets status, headers, text and parsed JSON', async () => {
    const t = scripted([() => json(201, { a: [1, 2] }, { 'x-used': '5' })])
    const seen = await t.send(READ)
    expect(seen.request).toBe(READ)
    expect(seen.answer.status).toBe(201)
    expect(seen.answer.headers.get('x-used')).toBe('5')
    expect(seen.answer.text).toBe('{"a":[1,2]}')
    expect(seen.answer.json).toEqual({ a: [1, 2] })
  })

  test('edge: a non-JSON answer reaches read() with json undefined', async () => {
    const t = scripted([
      () => new Response('Bad Request: nope', { status: 400 }),
      () => new Response('', { status: 200 }),
    ])
    const a = await t.send(READ)
    expect(a.answer).toMatchObject({
      status: 400,
      text: 'Bad Request: nope',
      json: undefined,
    })
    const b = await t.send(READ)
    expect(b.answer.text).toBe('')
    expect(b.answer.json).toBeUndefined()
  })

  test('edge: JSON null and numbers are parsed, not taken for missing', async () => {
    const t = scripted([
      () => new Response('null', { status: 200 }),
      () => new Response('42', { status: 200 }),
    ])
    expect((await t.send(READ)).answer.json).toBeNull()
    expect((await t.send(READ)).answer.json).toBe(42)
  })

  test("behavior: the budget is charged before fetch, with the request's charges", async () => {
    const t = scripted([() => json(200, {})])
    await t.send(WRITE)
    expect(t.calls[0]?.usedBefore).toEqual([
      expect.objectContaining({ bucket: 'weight', used: 1, requests: 1 }),
      expect.objectContaining({
        limit: 'orders',
        bucket: 'orders|0xabc',
        used: 1,
        requests: 1,
      }),
    ])
  })

  test('error: a spent budget fails VenueUnavailableError and fetch is not called', async () => {
    const t = scripted([
      () => json(200, {}),
      () => json(200, {}),
      () => json(200, {}),
      () => json(200, {}),
    ])
    // routine may fill 7 of the 10: 2 + 2 + 2, then 2 more does not fit
    await t.send(READ)
    await t.send(READ)
    await t.send(READ)
    const err = await caught(t.send(READ))
    expect(err).toBeInstanceOf(VenueUnavailableError)
    expect(err.message).toMatch(/budget is spent/)
    expect(t.calls).toHaveLength(3)
    expect(t.budget.usage()[0]).toMatchObject({ used: 6, requests: 3 })
    // an order still has room: the request's priority reaches the budget
    await t.send({
      ...READ,
      priority: 'order',
      charges: [{ limit: 'weight', weight: 4 }],
    })
    expect(t.calls).toHaveLength(4)
  })

  test('error: a write whose signed deadline passed while it waited for budget is not sent', async () => {
    const t = scripted([() => json(200, {})])
    let asked = 0
    const err = await caught(
      t.send({
        ...WRITE,
        pastDeadline: () => {
          asked++
          // asked once the budget is charged: after the wait, not before
          expect(t.budget.usage()[0]?.used).toBe(1)
          return true
        },
      }),
    )
    expect(err).toBeInstanceOf(VenueUnavailableError)
    expect(err.message).toMatch(/send window closed .* nothing was sent/)
    expect(asked).toBe(1)
    expect(t.calls).toHaveLength(0)
    await t.send({ ...WRITE, pastDeadline: () => false })
    expect(t.calls).toHaveLength(1)
  })

  test('behavior: a request with no charges is not counted', async () => {
    const t = scripted([() => json(200, {})])
    await t.send({ ...READ, charges: [] })
    expect(t.budget.usage()).toEqual([])
    expect(t.calls).toHaveLength(1)
  })

  test('error: a refused connection is VenueUnavailableError, even for a write', async () => {
    const t = scripted([
      () => Promise.reject(socketError('ECONNREFUSED')),
      () => Promise.reject(socketError('ENOTFOUND')),
    ])
    const err = await caught(t.send(WRITE))
    expect(err).toBeInstanceOf(VenueUnavailableError)
    expect(err).not.toBeInstanceOf(UncertainSubmissionError)
    expect(err.message).toBe('testvenue POST /exchange: not reachable')
    expect(err.cause).toBeInstanceOf(TypeError)
    await expect(t.send(READ)).rejects.toBeInstanceOf(VenueUnavailableError)
  })

  test('error: a reset after sending is uncertain for a write, unavailable for a read', async () => {
    const t = scripted([
      () => Promise.reject(socketError('UND_ERR_SOCKET')),
      () => Promise.reject(socketError('UND_ERR_SOCKET')),
      () => Promise.reject(new TypeError('fetch failed')),
    ])
    const w = await caught(t.send(WRITE))
    expect(w).toBeInstanceOf(UncertainSubmissionError)
    expect(w.message).toBe(
      'testvenue POST /exchange: request failed after sending',
    )
    expect((w.cause as Error).message).toBe('fetch failed')
    const r = await caught(t.send(READ))
    expect(r).toBeInstanceOf(VenueUnavailableError)
    expect(r.message).toBe('testvenue GET /info: request failed after sending')
    // no code at all: it may have been sent
    await expect(t.send(WRITE)).rejects.toBeInstanceOf(UncertainSubmissionError)
  })

  test('error: our timeout is uncertain for a write ("timed out")', async () => {
    const t = scripted([
      () =>
        Promise.reject(
          new DOMException('The operation timed out', 'TimeoutError'),
        ),
    ])
    const err = await caught(t.send(WRITE))
    expect(err).toBeInstanceOf(UncertainSubmissionError)
    expect(err.message).toBe('testvenue POST /exchange: timed out')
  })

  test('behavior: the request is abandoned after `timeout` ms', async () => {
    const started = Date.now()
    let signal: AbortSignal | undefined
    const budget = createRequestBudget({
      name: 'test',
      limits: [{ id: 'weight', capacity: 20, windowMs: 60_000 }],
    })
    const send = createVenueHttp(
      {
        venue: 'testvenue',
        rateLimited: () => null,
        read: () => 'read',
      },
      {
        baseUrl: 'https://venue.example',
        timeout: 60,
        budget,
        fetchFn: (_url, init) => {
          signal = init?.signal ?? undefined
          return new Promise<Response>((_res, rej) => {
            init?.signal?.addEventListener('abort', () =>
              rej(init.signal?.reason),
            )
          })
        },
      },
    )
    const err = await caught(send({ ...WRITE, charges: [] }))
    expect(err).toBeInstanceOf(UncertainSubmissionError)
    expect(err.message).toMatch(/timed out$/)
    expect(signal?.aborted).toBe(true)
    expect(Date.now() - started).toBeGreaterThanOrEqual(50)
    expect(Date.now() - started).toBeLessThan(1_000)
  })

  test('error: a 5xx is uncertain for a write, unavailable for a read; read() is not asked', async () => {
    let reads = 0
    const t = scripted(
      [
        () => new Response('bad gateway', { status: 502 }),
        () => json(503, { error: 'overloaded' }),
        () => new Response('', { status: 500 }),
      ],
      {
        read: () => {
          reads++
          throw new Error('read() must not see a 5xx')
        },
      },
    )
    const w = await caught(t.send(WRITE))
    expect(w).toBeInstanceOf(UncertainSubmissionError)
    expect(w.message).toBe('testvenue POST /exchange: HTTP 502 bad gateway')
    const r = await caught(t.send(READ))
    expect(r).toBeInstanceOf(VenueUnavailableError)
    expect(r.message).toBe(
      'testvenue GET /info: HTTP 503 {"error":"overloaded"}',
    )
    const empty = await caught(t.send(WRITE))
    expect(empty.message).toBe('testvenue POST /exchange: HTTP 500')
    expect(reads).toBe(0)
    expect(t.settled).toHaveLength(3)
  })

  test('error: a 5xx body is cut to 200 characters in the message', async () => {
    const t = scripted([() => new Response('x'.repeat(500), { status: 500 })])
    const err = await caught(t.send(READ))
    expect(err.message).toBe(`testvenue GET /info: HTTP 500 ${'x'.repeat(200)}`)
  })

  test('error: a body cut off is uncertain for a write', async () => {
    const cutOff = () =>
      ({
        status: 200,
        headers: new Headers(),
        text: () => Promise.reject(new TypeError('terminated')),
      }) as unknown as Response
    const t = scripted([cutOff, cutOff])
    const w = await caught(t.send(WRITE))
    expect(w).toBeInstanceOf(UncertainSubmissionError)
    expect(w.message).toBe('testvenue POST /exchange: answer cut off')
    const r = await caught(t.send(READ))
    expect(r).toBeInstanceOf(VenueUnavailableError)
  })

  test('behavior: a rate-limit answer holds the budget off and fails VenueUnavailableError', async () => {
    const t = scripted([
      () => json(429, { error: 'too many' }),
      () => json(200, { ok: true }),
    ])
    const err = await caught(t.send(WRITE))
    expect(err).toBeInstanceOf(VenueUnavailableError)
    expect(err).not.toBeInstanceOf(UncertainSubmissionError)
    expect(err.message).toBe(
      'testvenue POST /exchange: rate limited (HTTP 429), backing off 30 s',
    )
    expect(t.limited).toHaveLength(1)
    expect(t.limited[0]?.status).toBe(429)
    expect(t.limited[0]?.json).toEqual({ error: 'too many' })
    expect(t.budget.heldOff()).toEqual({
      until: 1_000_000 + 30_000,
      reason: 'HTTP 429',
    })
    // while held off nothing is sent
    const held = await caught(t.send(READ))
    expect(held).toBeInstanceOf(VenueUnavailableError)
    expect(held.message).toMatch(/back off \(HTTP 429\)/)
    expect(t.calls).toHaveLength(1)
    t.advance(30_000)
    expect(t.budget.heldOff()).toBeNull()
    await expect(t.send(READ)).resolves.toMatchObject({
      answer: { json: { ok: true } },
    })
    expect(t.calls).toHaveLength(2)
  })

  test('behavior: with firstHoldMs, refusals naming no wait hold short, double in a row, and start over after an answer; a named Retry-After holds as named', async () => {
    const t = scripted(
      [
        () => json(429, {}),
        () => json(429, {}),
        () => json(200, { ok: true }),
        () => json(429, {}),
        () => json(429, {}, { 'retry-after': '7' }),
      ],
      { firstHoldMs: 2_000 },
    )
    const holds: string[] = []
    for (let i = 0; i < 5; i++) {
      const sent = await t.send(READ).then(
        () => 'answered',
        (e: Error) => e.message.replace(/^.*backing off /, ''),
      )
      holds.push(sent)
      t.advance(60_000)
    }
    expect(holds).toEqual(['2 s', '4 s', 'answered', '2 s', '7 s'])
    expect(t.calls).toHaveLength(5)
  })

  test('behavior: without firstHoldMs every refusal holds the full time', async () => {
    const t = scripted([() => json(429, {}), () => json(429, {})])
    await caught(t.send(READ))
    t.advance(60_000)
    const err = await caught(t.send(READ))
    expect(err.message).toMatch(/backing off 30 s$/)
    expect(t.budget.heldOff()?.until).toBe(1_000_000 + 60_000 + 30_000)
  })

  test('behavior: the protocol decides what a rate limit is, whatever the status', async () => {
    const t = scripted([() => json(200, { code: -1003 })], {
      rateLimited: (a) =>
        (a.json as { code?: number } | undefined)?.code === -1003
          ? 1_500
          : null,
    })
    const err = await caught(t.send(READ))
    expect(err.message).toBe(
      'testvenue GET /info: rate limited (HTTP 200), backing off 2 s',
    )
    expect(t.budget.heldOff()?.until).toBe(1_000_000 + 1_500)
  })

  test('behavior: settle() is called with the request, the answer and the budget', async () => {
    const t = scripted(
      [() => json(200, [1, 2, 3], { 'x-used': '9' }), () => json(429, {})],
      {
        settle(request, answer, budget) {
          t.settled.push({ request, answer })
          budget.observe(
            'weight',
            'weight',
            Number(answer.headers.get('x-used') ?? 0),
          )
        },
      },
    )
    await t.send(READ)
    expect(t.settled).toHaveLength(1)
    expect(t.settled[0]?.request).toBe(READ)
    expect(t.settled[0]?.answer.json).toEqual([1, 2, 3])
    // the venue said 9 were used: more than our 2
    expect(t.budget.usage()[0]).toMatchObject({ bucket: 'weight', used: 9 })
    // settle sees a rate-limited answer too
    await expect(t.send({ ...READ, charges: [] })).rejects.toThrow(
      /rate limited/,
    )
    expect(t.settled).toHaveLength(2)
    expect(t.settled[1]?.answer.status).toBe(429)
  })

  test('behavior: the uncertain() given to read() builds the error for the kind', async () => {
    const t = scripted([() => json(200, {}), () => json(200, {})])
    const w = await t.send(WRITE)
    const we = w.uncertain('no status in answer')
    expect(we).toBeInstanceOf(UncertainSubmissionError)
    expect(we.message).toBe('testvenue POST /exchange: no status in answer')
    const r = await t.send(READ)
    const re = r.uncertain('garbled')
    expect(re).toBeInstanceOf(VenueUnavailableError)
    expect(re.message).toBe('testvenue GET /info: garbled')
  })

  test('error: what read() throws reaches the caller as is', async () => {
    class Refused extends Error {}
    const t = scripted([() => json(400, { error: 'bad' })], {
      read: () => {
        throw new Refused('bad')
      },
    })
    await expect(t.send(WRITE)).rejects.toBeInstanceOf(Refused)
  })

  test('behavior: an answer the protocol reads as "not done" is VenueUnavailableError, even a 5xx', async () => {
    let reads = 0
    const t = scripted(
      [
        () => json(503, { msg: 'Service Unavailable.' }),
        () => json(200, { status: 'err', response: 'busy' }),
        () => json(503, { msg: 'Unknown error' }),
      ],
      {
        notActed: (a) => {
          const msg = (a.json as { msg?: string; response?: string }) ?? {}
          return msg.msg === 'Service Unavailable.'
            ? 'service unavailable'
            : msg.response === 'busy'
              ? 'busy'
              : null
        },
        read: (request, answer, uncertain) => {
          reads++
          return { request, answer, uncertain }
        },
      },
    )
    const free = { ...WRITE, charges: [] }
    const w = await caught(t.send(free))
    expect(w).toBeInstanceOf(VenueUnavailableError)
    expect(w).not.toBeInstanceOf(UncertainSubmissionError)
    expect(w.message).toBe(
      'testvenue POST /exchange: not done (HTTP 503): service unavailable',
    )
    expect((await caught(t.send(free))).message).toBe(
      'testvenue POST /exchange: not done (HTTP 200): busy',
    )
    // the protocol names only what its venue documents: the rest is uncertain
    await expect(t.send(free)).rejects.toBeInstanceOf(UncertainSubmissionError)
    expect(reads).toBe(0)
    // a "not done" is no rate limit: nothing is held off
    expect(t.budget.heldOff()).toBeNull()
  })

  test('error: a 408 is uncertain for a write, like a 5xx', async () => {
    const t = scripted([() => json(408, { code: -1007 })])
    const w = await caught(t.send(WRITE))
    expect(w).toBeInstanceOf(UncertainSubmissionError)
    expect(w.message).toBe('testvenue POST /exchange: HTTP 408 {"code":-1007}')
  })

  test('default: budgetCharges puts per-account charges in their own bucket', () => {
    expect(
      budgetCharges([
        { limit: 'weight', weight: 3 },
        { limit: 'orders', weight: 1, account: '0xabc' },
      ]),
    ).toEqual([
      { limit: 'weight', bucket: 'weight', weight: 3 },
      { limit: 'orders', bucket: 'orders|0xabc', weight: 1 },
    ])
  })

  test('behavior: weight only the answer shows is counted from a 2xx answer', async () => {
    const t = scripted([
      () => json(200, new Array(40).fill(0)),
      () => json(503, []),
    ])
    const perItems = (body: unknown) =>
      Array.isArray(body)
        ? [{ limit: 'weight', weight: Math.floor(body.length / 20) }]
        : []
    await t.send({ ...READ, answerCharges: perItems })
    // 2 before sending, 2 more for 40 items
    expect(t.budget.usage()[0]).toMatchObject({ bucket: 'weight', used: 4 })
    await caught(t.send({ ...READ, answerCharges: perItems }))
    // the 503 carried no items: only the request's own 2 more
    expect(t.budget.usage()[0]).toMatchObject({ bucket: 'weight', used: 6 })
  })
})

/**
 * The transport's proofs end to end: createVenueHttp over Node's own
 * fetch, against loopback peers that fail one way each.
 */
describe('createVenueHttp over Node fetch', () => {
  let peers: FaultServer[] = []
  afterEach(async () => {
    await Promise.all(peers.map((p) => p.close()))
    peers = []
  })
  const over = (baseUrl: string) =>
    createVenueHttp(
      { venue: 'testvenue', rateLimited: () => null, read: () => 'read' },
      {
        baseUrl,
        timeout: 150,
        budget: createRequestBudget({ name: 'test', limits: [] }),
        fetchFn: globalThis.fetch,
      },
    )
  const write = { ...WRITE, charges: [] }

  test('error: refused is "not reachable", nothing sent', async () => {
    const err = await caught(
      over(`http://127.0.0.1:${await closedPort()}`)(write),
    )
    expect(err).toBeInstanceOf(VenueUnavailableError)
    expect(err.message).toBe('testvenue POST /exchange: not reachable')
  })

  test('error: our timeout during a stalled TLS handshake never wrote the order', async () => {
    const peer = await startFaultPeer('silent')
    peers.push(peer)
    const err = await caught(over(`https://127.0.0.1:${peer.port}`)(write))
    expect(err).toBeInstanceOf(VenueUnavailableError)
    expect(err).not.toBeInstanceOf(UncertainSubmissionError)
    expect(err.message).toBe(
      'testvenue POST /exchange: timed out before the request was written',
    )
  })

  test('error: a reset after our ClientHello never wrote the order', async () => {
    const peer = await startFaultPeer('resetOnData')
    peers.push(peer)
    const err = await caught(over(`https://127.0.0.1:${peer.port}`)(write))
    expect(err).toBeInstanceOf(VenueUnavailableError)
    expect(err.message).toBe(
      'testvenue POST /exchange: failed before the request was written',
    )
  })

  test('error: our timeout after the order was written is uncertain', async () => {
    const peer = await startFaultPeer('silent')
    peers.push(peer)
    const err = await caught(over(`http://127.0.0.1:${peer.port}`)(write))
    expect(err).toBeInstanceOf(UncertainSubmissionError)
    expect(err.message).toBe('testvenue POST /exchange: timed out')
    expect(peer.received()).toBeGreaterThan(0)
  })

  test('error: closed after the order was read is uncertain', async () => {
    const peer = await startFaultPeer('finOnData')
    peers.push(peer)
    const err = await caught(over(`http://127.0.0.1:${peer.port}`)(write))
    expect(err).toBeInstanceOf(UncertainSubmissionError)
    expect(err.message).toBe(
      'testvenue POST /exchange: request failed after sending',
    )
  })
})
