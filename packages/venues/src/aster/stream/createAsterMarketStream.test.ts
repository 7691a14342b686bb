import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { WebSocketServer, type WebSocket as WsSocket } from 'ws'
import {
  type AsterFake,
  startAsterFake,
} from '../../sim/asterFake/startAsterFake.js'
import { createSimExchange } from '../../sim/simExchange.js'
import { decField } from '../../wire/jsonFields.js'
import type { MarketStream } from '../../wire/marketStream.js'
import type { SocketState } from '../../wire/reconnectingSocket.js'
import { createAsterAdapter } from '../adapter/createAsterAdapter.js'
import {
  asterWsUrl,
  createAsterMarketStream,
  readAsterStreamFrame,
} from './createAsterMarketStream.js'

const until = async (ok: () => boolean, ms = 3_000) => {
  const end = Date.now() + ms
  while (!ok()) {
    if (Date.now() > end) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 5))
  }
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

type Row = Record<string, unknown>

describe('createAsterMarketStream against the Aster fake', () => {
  const t = Date.UTC(2026, 0, 5, 10, 20, 30)
  const exchange = createSimExchange({
    venue: 'aster',
    seed: 5,
    clock: { now: () => t },
  })
  let fake: AsterFake
  let stream: MarketStream
  const states: SocketState[] = []
  const streams: MarketStream[] = []
  beforeAll(async () => {
    fake = await startAsterFake({
      exchange,
      port: 0,
      now: () => t,
      streamIntervalMs: 20,
    })
    stream = createAsterMarketStream({
      url: fake.wsUrl,
      minDelayMs: 20,
      onState: (s) => states.push(s),
    })
    streams.push(stream)
  })
  afterAll(async () => {
    for (const s of streams) s.close()
    await fake.close()
  })
  const symbols = () => exchange.listed().map((r) => r.symbol)
  const rest = async (path: string) =>
    (await (await fetch(`${fake.url}${path}`)).json()) as Row[]

  test('behavior: every symbol streams the values premiumIndex and bookTicker answer', async () => {
    await until(() => symbols().every((s) => stream.latest(s)?.bid))
    expect(stream.state()).toBe('open')
    const premium = await rest('/fapi/v3/premiumIndex')
    const books = await rest('/fapi/v3/ticker/bookTicker')
    for (const p of premium) {
      const b = books.find((r) => r.symbol === p.symbol)
      const q = stream.latest(String(p.symbol))
      expect(q).toEqual({
        mark: decField(p.markPrice),
        fundingRate: decField(p.lastFundingRate),
        nextFundingAt: p.nextFundingTime,
        bid: decField(b?.bidPrice),
        ask: decField(b?.askPrice),
        at: expect.any(Number),
      })
      expect(Date.now() - (q?.at ?? 0)).toBeLessThan(1_000)
    }
    expect(stream.latest('ethusdt')).toEqual(stream.latest('ETHUSDT'))
    expect(stream.latest('NOPEUSDT')).toBeUndefined()
  })

  test('behavior: the adapter quotes from the stream without reading premiumIndex or bookTicker', async () => {
    const paths: string[] = []
    const streamed = createAsterAdapter({
      baseUrl: fake.url,
      marketStream: stream,
      fetchFn: (url, init) => {
        paths.push(new URL(String(url)).pathname)
        return globalThis.fetch(url, init)
      },
    })
    const polled = createAsterAdapter({ baseUrl: fake.url })
    await until(() => stream.latest('BTCUSDT')?.bid !== undefined)
    for (const symbol of symbols()) {
      const { at: _a, ...fromStream } = await streamed.quote(symbol)
      const { at: _b, ...fromRest } = await polled.quote(symbol)
      expect(fromStream).toEqual(fromRest)
    }
    expect(paths).not.toContain('/fapi/v3/premiumIndex')
    expect(paths).not.toContain('/fapi/v3/ticker/bookTicker')
  })

  test('behavior: updates follow the engine', async () => {
    exchange.setMark('BTCUSDT', '50000.5')
    try {
      await until(() => stream.latest('BTCUSDT')?.mark === '50000.5')
      const book = (await rest('/fapi/v3/ticker/bookTicker')).find(
        (r) => r.symbol === 'BTCUSDT',
      )
      await until(
        () => stream.latest('BTCUSDT')?.bid === decField(book?.bidPrice),
      )
      expect(stream.latest('BTCUSDT')?.ask).toBe(decField(book?.askPrice))
    } finally {
      exchange.setMark('BTCUSDT', null)
    }
  })

  test('behavior: after dropStreams it reconnects and values flow again', async () => {
    await until(() => stream.state() === 'open')
    const opened = states.filter((s) => s === 'open').length
    fake.dropStreams()
    await until(() => stream.state() !== 'open')
    exchange.setMark('ETHUSDT', '2222.25')
    try {
      await until(() => stream.latest('ETHUSDT')?.mark === '2222.25')
      expect(stream.state()).toBe('open')
      expect(states.filter((s) => s === 'open').length).toBe(opened + 1)
      expect(fake.streamClients()).toEqual([
        expect.objectContaining({
          streams: ['!markPrice@arr@1s', '!bookTicker'],
          combined: true,
        }),
      ])
    } finally {
      exchange.setMark('ETHUSDT', null)
    }
  })

  test('behavior: close() stops it for good', async () => {
    const other = createAsterMarketStream({ url: fake.wsUrl, minDelayMs: 10 })
    streams.push(other)
    await until(() => other.latest('BTCUSDT') !== undefined)
    expect(fake.streamClients()).toHaveLength(2)
    other.close()
    expect(other.state()).toBe('closed')
    await until(() => fake.streamClients().length === 1)
    fake.dropStreams()
    await sleep(100)
    expect(other.state()).toBe('closed')
    // only the first stream came back
    await until(() => fake.streamClients().length === 1)
    await sleep(50)
    expect(fake.streamClients()).toHaveLength(1)
  })
})

describe('createAsterMarketStream against a venue sending junk', () => {
  const server = createServer()
  const wss = new WebSocketServer({ server })
  const sockets: WsSocket[] = []
  let url = ''
  beforeAll(async () => {
    wss.on('connection', (ws) => sockets.push(ws))
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    for (const s of sockets) s.terminate()
    await new Promise((r) => wss.close(r))
    await new Promise((r) => server.close(r))
  })

  test('error: malformed frames are ignored, the connection stays and `at` is the older part', async () => {
    let now = 1_000
    const stream = createAsterMarketStream({ url, now: () => now })
    try {
      await until(() => sockets.length === 1)
      const ws = sockets[0] as WsSocket
      const mark = {
        e: 'markPriceUpdate',
        E: 1,
        s: 'BTCUSDT',
        p: '100.50',
        i: '100',
        P: '100',
        r: '0.00010000',
        T: 1_767_600_000_000,
      }
      for (const junk of [
        'garbage',
        'null',
        '[]',
        '{"stream":"!markPrice@arr@1s"}',
        JSON.stringify({ stream: 'x', data: [1, null, { ...mark, p: 'abc' }] }),
        JSON.stringify({ ...mark, s: 7 }),
        JSON.stringify({ e: 'bookTicker', s: 'BTCUSDT', b: '1', a: null }),
        JSON.stringify({ result: null, id: 1 }),
      ]) {
        ws.send(junk)
      }
      ws.send(JSON.stringify({ stream: '!markPrice@arr@1s', data: [mark] }))
      await until(() => stream.latest('BTCUSDT') !== undefined)
      expect(stream.latest('BTCUSDT')).toEqual({
        mark: '100.5',
        fundingRate: '0.0001',
        nextFundingAt: 1_767_600_000_000,
        bid: undefined,
        ask: undefined,
        at: 1_000,
      })
      now = 2_000
      // a raw (unwrapped) book event is read too
      ws.send(
        JSON.stringify({
          e: 'bookTicker',
          u: 9,
          E: 2,
          T: 2,
          s: 'BTCUSDT',
          b: '100.40',
          B: '1',
          a: '100.6',
          A: '2',
        }),
      )
      await until(() => stream.latest('BTCUSDT')?.bid !== undefined)
      expect(stream.latest('BTCUSDT')).toMatchObject({
        bid: '100.4',
        ask: '100.6',
        at: 1_000,
      })
      now = 3_000
      ws.send(JSON.stringify({ stream: '!markPrice@arr@1s', data: [mark] }))
      await until(() => stream.latest('BTCUSDT')?.at === 2_000)
      expect(sockets).toHaveLength(1)
      expect(stream.state()).toBe('open')
    } finally {
      stream.close()
    }
  })
})

describe('readAsterStreamFrame', () => {
  test('behavior: funding fields that cannot be read are left out, not guessed', () => {
    expect(
      readAsterStreamFrame(
        JSON.stringify([
          { e: 'markPriceUpdate', s: 'ethusdt', p: 5, r: 'x', T: '12' },
        ]),
      ),
    ).toEqual({
      marks: [
        {
          symbol: 'ETHUSDT',
          mark: '5',
          fundingRate: undefined,
          nextFundingAt: 12,
        },
      ],
      books: [],
    })
    expect(readAsterStreamFrame('{"data":')).toEqual({ marks: [], books: [] })
  })
})

describe('asterWsUrl', () => {
  test('behavior: REST bases map to their stream bases', () => {
    expect(asterWsUrl('https://fapi.asterdex.com')).toBe(
      'wss://fstream.asterdex.com',
    )
    expect(asterWsUrl('https://fapi3.asterdex.com/')).toBe(
      'wss://fstream.asterdex.com',
    )
    expect(asterWsUrl('https://fapi.asterdex-testnet.com')).toBe(
      'wss://fstream.asterdex-testnet.com',
    )
    expect(asterWsUrl('http://127.0.0.1:4100')).toBe('ws://127.0.0.1:4100')
    expect(asterWsUrl('https://aster.example/x/')).toBe('wss://aster.example/x')
    expect(() => asterWsUrl('ftp://x')).toThrow(RangeError)
  })
})
