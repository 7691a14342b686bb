import { WebSocket as UndiciWebSocket } from 'undici'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { WebSocket } from 'ws'
import { createSimExchange } from '../simExchange.js'
import { parseAsterStreamName } from './asterFakeStreams.js'
import { type AsterFake, startAsterFake } from './startAsterFake.js'

const until = async (ok: () => boolean, ms = 3_000) => {
  const end = Date.now() + ms
  while (!ok()) {
    if (Date.now() > end) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 5))
  }
}

/** A `ws` client that keeps every parsed frame. */
async function connect(url: string) {
  const ws = new WebSocket(url)
  const frames: unknown[] = []
  ws.on('message', (d) => frames.push(JSON.parse(String(d))))
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve())
    ws.once('error', reject)
  })
  return {
    ws,
    frames,
    /** the first frame (from `from` on) that `pick` accepts */
    async next<T>(pick: (f: unknown) => T | undefined, from = 0): Promise<T> {
      let found: T | undefined
      await until(() => {
        for (const f of frames.slice(from)) {
          found = pick(f)
          if (found !== undefined) return true
        }
        return false
      })
      return found as T
    },
  }
}

/** The HTTP status an upgrade to `url` is refused with. */
function refusedWith(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url)
    ws.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0)
      ws.terminate()
    })
    ws.on('open', () => reject(new Error('upgraded')))
    ws.on('error', () => {})
  })
}

type Obj = Record<string, unknown>
const obj = (v: unknown): Obj | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v)
    ? (v as Obj)
    : undefined

describe('Aster fake market streams', () => {
  let t = Date.UTC(2026, 0, 5, 10, 20, 30)
  const exchange = createSimExchange({
    venue: 'aster',
    seed: 11,
    clock: { now: () => t },
  })
  let fake: AsterFake
  const open: WebSocket[] = []
  beforeAll(async () => {
    fake = await startAsterFake({
      exchange,
      port: 0,
      now: () => t,
      streamIntervalMs: 20,
    })
  })
  afterAll(async () => {
    for (const ws of open) ws.terminate()
    await fake.close()
  })
  const client = async (path: string) => {
    const c = await connect(`${fake.wsUrl}${path}`)
    open.push(c.ws)
    return c
  }
  const rest = async (path: string) =>
    (await (await fetch(`${fake.url}${path}`)).json()) as Obj[]

  test('behavior: the combined all-market streams carry the premiumIndex and bookTicker answers', async () => {
    const before = fake.rateLimitUsage().reduce((n, b) => n + b.requests, 0)
    const c = await client('/stream?streams=!markPrice@arr@1s/!bookTicker')
    const marks = await c.next((f) => {
      const o = obj(f)
      return o?.stream === '!markPrice@arr@1s' ? (o.data as Obj[]) : undefined
    })
    const symbols = exchange.listed().map((r) => r.symbol)
    await until(() =>
      symbols.every((s) => c.frames.some((f) => obj(obj(f)?.data)?.s === s)),
    )
    const premium = await rest('/fapi/v3/premiumIndex')
    expect(marks).toEqual(
      premium.map((p) => ({
        e: 'markPriceUpdate',
        E: p.time,
        s: p.symbol,
        p: p.markPrice,
        i: p.indexPrice,
        P: p.estimatedSettlePrice,
        r: p.lastFundingRate,
        T: p.nextFundingTime,
      })),
    )
    const tickers = await rest('/fapi/v3/ticker/bookTicker')
    for (const b of tickers) {
      const ev = c.frames
        .map((f) => obj(f))
        .find((f) => f?.stream === '!bookTicker' && obj(f.data)?.s === b.symbol)
      expect(ev?.data).toMatchObject({
        e: 'bookTicker',
        E: b.time,
        T: b.time,
        s: b.symbol,
        b: b.bidPrice,
        B: b.bidQty,
        a: b.askPrice,
        A: b.askQty,
      })
      expect(typeof obj(ev?.data)?.u).toBe('number')
    }
    // frames are not charged against the REST weight: only our 2 reads
    const after = fake.rateLimitUsage().reduce((n, b) => n + b.requests, 0)
    expect(after - before).toBe(2)
    expect(fake.streamClients()).toContainEqual(
      expect.objectContaining({
        streams: ['!markPrice@arr@1s', '!bookTicker'],
        combined: true,
      }),
    )
  })

  test('behavior: raw /ws/<stream> sends unwrapped events that follow the engine', async () => {
    const mark = await client('/ws/ethusdt@markPrice@1s')
    const book = await client('/ws/btcusdt@bookTicker')
    const first = await mark.next((f) => obj(f))
    expect(first).toMatchObject({ e: 'markPriceUpdate', s: 'ETHUSDT' })
    expect(await book.next((f) => obj(f))).toMatchObject({
      e: 'bookTicker',
      s: 'BTCUSDT',
    })
    exchange.setMark('ETHUSDT', '1234.5')
    try {
      const from = mark.frames.length
      expect(await mark.next((f) => obj(f)?.p, from)).toBe('1234.5')
    } finally {
      exchange.setMark('ETHUSDT', null)
    }
    t += 3_600_000 // the next funding time moves with the clock
    const from = mark.frames.length
    const later = await mark.next((f) => obj(f), from)
    expect(later.T).toBe((first.T as number) + 3_600_000)
  })

  test('behavior: SUBSCRIBE, LIST_SUBSCRIPTIONS, UNSUBSCRIBE and properties are answered with their id', async () => {
    const c = await client('/ws')
    const reply = (id: number) =>
      c.next((f) => (obj(f)?.id === id ? obj(f) : undefined))
    c.ws.send(
      JSON.stringify({
        method: 'SUBSCRIBE',
        params: ['btcusdt@markPrice', '!markPrice@arr'],
        id: 1,
      }),
    )
    expect(await reply(1)).toEqual({ result: null, id: 1 })
    await c.next((f) => (obj(f)?.s === 'BTCUSDT' ? f : undefined))
    await c.next((f) => (Array.isArray(f) ? f : undefined))
    c.ws.send(JSON.stringify({ method: 'LIST_SUBSCRIPTIONS', id: 2 }))
    expect(await reply(2)).toEqual({
      result: ['btcusdt@markPrice', '!markPrice@arr'],
      id: 2,
    })
    c.ws.send(
      JSON.stringify({
        method: 'SET_PROPERTY',
        params: ['combined', true],
        id: 3,
      }),
    )
    expect(await reply(3)).toEqual({ result: null, id: 3 })
    c.ws.send(
      JSON.stringify({ method: 'GET_PROPERTY', params: ['combined'], id: 4 }),
    )
    expect(await reply(4)).toEqual({ result: true, id: 4 })
    const from = c.frames.length
    expect(
      await c.next((f) => (obj(f)?.stream ? obj(f) : undefined), from),
    ).toMatchObject({ stream: expect.any(String), data: expect.anything() })
    c.ws.send(
      JSON.stringify({
        method: 'UNSUBSCRIBE',
        params: ['btcusdt@markPrice', '!markPrice@arr'],
        id: 312,
      }),
    )
    expect(await reply(312)).toEqual({ result: null, id: 312 })
    await new Promise((r) => setTimeout(r, 60))
    const quiet = c.frames.length
    await new Promise((r) => setTimeout(r, 80))
    expect(c.frames.length).toBe(quiet)
  })

  test('error: bad frames get the documented error answers; other paths and outages refuse the upgrade', async () => {
    const c = await client('/ws')
    c.ws.send('{not json')
    expect(await c.next((f) => obj(f))).toEqual({
      code: 3,
      msg: 'Invalid JSON: expected value at line 1 column 1',
    })
    c.ws.send(JSON.stringify({ method: 'SUBSCRIBE', params: [], id: -1 }))
    expect(await c.next((f) => obj(f), 1)).toMatchObject({ code: 2 })
    c.ws.send(JSON.stringify({ method: 'NOPE', id: 5 }))
    expect(String((await c.next((f) => obj(f), 2)).msg)).toContain(
      'unknown variant NOPE',
    )
    c.ws.send(JSON.stringify({ params: [] }))
    expect((await c.next((f) => obj(f), 3)).msg).toContain('`method`')

    expect(await refusedWith(`${fake.wsUrl}/nothing`)).toBe(404)
    exchange.setFaults({ outage: true })
    try {
      expect(await refusedWith(`${fake.wsUrl}/ws/!bookTicker`)).toBe(503)
    } finally {
      exchange.setFaults({})
    }
  })

  test("behavior: the server pings and undici's WebSocket answers with pongs", async () => {
    const pinging = await startAsterFake({
      exchange,
      port: 0,
      streamPingIntervalMs: 40,
    })
    const ws = new UndiciWebSocket(`${pinging.wsUrl}/ws/!bookTicker`)
    try {
      await until(() => (pinging.streamClients()[0]?.pongs ?? 0) >= 2)
    } finally {
      ws.close()
      await pinging.close()
    }
  })

  test('behavior: dropStreams terminates every connection', async () => {
    const c = await client('/ws/!bookTicker')
    const closed = new Promise<void>((r) => c.ws.once('close', () => r()))
    expect(fake.streamClients().length).toBeGreaterThan(0)
    fake.dropStreams()
    expect(fake.streamClients()).toEqual([])
    await closed
  })

  test('behavior: close() ends open connections and the server', async () => {
    const other = await startAsterFake({ exchange, port: 0 })
    const c = await connect(`${other.wsUrl}/ws/!bookTicker`)
    const closed = new Promise<void>((r) => c.ws.once('close', () => r()))
    await other.close()
    await closed
    expect(other.streamClients()).toEqual([])
  })

  test('behavior: a connection is closed (1000) once its lifetime is over', async () => {
    const short = await startAsterFake({
      exchange,
      port: 0,
      streamIntervalMs: 10,
      streamLifetimeMs: 40,
    })
    try {
      const c = await connect(`${short.wsUrl}/ws/!bookTicker`)
      const code = await new Promise<number>((r) =>
        c.ws.once('close', (n) => r(n)),
      )
      expect(code).toBe(1000)
      expect(c.frames.length).toBeGreaterThan(0)
    } finally {
      await short.close()
    }
  })

  test('behavior: stream names', () => {
    expect(parseAsterStreamName('!markPrice@arr@1s')).toEqual({ kind: 'marks' })
    expect(parseAsterStreamName('btcusdt@markPrice@1s')).toEqual({
      kind: 'mark',
      symbol: 'BTCUSDT',
    })
    expect(parseAsterStreamName('btcusdt@bookTicker')).toEqual({
      kind: 'book',
      symbol: 'BTCUSDT',
    })
    expect(parseAsterStreamName('btcusdt@depth')).toBeNull()
  })
})
