import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { WebSocketServer } from 'ws'
import {
  type HyperliquidFake,
  startHyperliquidFake,
} from '../../sim/hyperliquidFake/startHyperliquidFake.js'
import { createSimExchange, type SimExchange } from '../../sim/simExchange.js'
import { T0 } from '../../sim/simTestKit.js'
import { decField } from '../../wire/jsonFields.js'
import type { MarketStream } from '../../wire/marketStream.js'
import type { SocketState } from '../../wire/reconnectingSocket.js'
import { createHlMarketStream, hlWsUrl } from './createHlMarketStream.js'

let fake: HyperliquidFake
let exchange: SimExchange
const streams: MarketStream[] = []

beforeAll(async () => {
  const now = T0 + 500
  exchange = createSimExchange({
    venue: 'hl',
    seed: 7,
    clock: { now: () => now },
  })
  fake = await startHyperliquidFake({
    exchange,
    now: () => now,
    streamIntervalMs: 20,
  })
})

afterAll(async () => {
  for (const s of streams) s.close()
  await fake.close()
})

function open(url = fake.wsUrl, onState?: (s: SocketState) => void) {
  const stream = createHlMarketStream({
    url,
    minDelayMs: 20,
    maxDelayMs: 100,
    onState,
  })
  streams.push(stream)
  return stream
}

/** What the stream must show for `coin`: REST's ctx, normalized. */
async function restQuote(coin: string) {
  const dex = coin.includes(':') ? coin.split(':')[0] : undefined
  const res = await fetch(`${fake.url}/info`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'metaAndAssetCtxs', ...(dex ? { dex } : {}) }),
  })
  const [meta, ctxs] = (await res.json()) as [
    { universe: { name: string }[] },
    { markPx: string; funding: string; impactPxs: [string, string] }[],
  ]
  const ctx = ctxs[meta.universe.findIndex((u) => u.name === coin)]
  if (!ctx) throw new Error(`no ctx for ${coin}`)
  return {
    mark: decField(ctx.markPx),
    fundingRate: decField(ctx.funding),
    bid: decField(ctx.impactPxs[0]),
    ask: decField(ctx.impactPxs[1]),
  }
}

describe('hlWsUrl', () => {
  test('behavior: maps the API base URL to its WebSocket', () => {
    expect(hlWsUrl('https://api.hyperliquid.xyz')).toBe(
      'wss://api.hyperliquid.xyz/ws',
    )
    expect(hlWsUrl('https://api.hyperliquid-testnet.xyz/')).toBe(
      'wss://api.hyperliquid-testnet.xyz/ws',
    )
    expect(hlWsUrl('http://127.0.0.1:4321')).toBe('ws://127.0.0.1:4321/ws')
    expect(() => hlWsUrl('ftp://x')).toThrow(RangeError)
  })
})

describe('createHlMarketStream', () => {
  test('behavior: streams the mark, funding and impact prices of /info metaAndAssetCtxs, main and builder dex', async () => {
    const stream = open()
    stream.watch('BTC')
    stream.watch('xyz:TSLA')
    stream.watch('BTC')
    await vi.waitFor(() => {
      expect(stream.latest('BTC')).toBeDefined()
      expect(stream.latest('xyz:TSLA')).toBeDefined()
    })
    expect(stream.state()).toBe('open')
    expect(stream.latest('BTC')).toEqual({
      ...(await restQuote('BTC')),
      at: expect.any(Number),
    })
    expect(stream.latest('xyz:TSLA')).toEqual({
      ...(await restQuote('xyz:TSLA')),
      at: expect.any(Number),
    })
    expect(stream.latest('ETH')).toBeUndefined()
  })

  test('behavior: a moved mark reaches latest()', async () => {
    const stream = open()
    stream.watch('ETH')
    await vi.waitFor(() => expect(stream.latest('ETH')).toBeDefined())
    exchange.setMark('ETH', '2500.5')
    await vi.waitFor(() => expect(stream.latest('ETH')?.mark).toBe('2500.5'))
    expect(stream.latest('ETH')).toMatchObject(await restQuote('ETH'))
    exchange.setMark('ETH', null)
  })

  test('behavior: after dropStreams it reconnects, subscribes again and values flow', async () => {
    const states: SocketState[] = []
    const stream = open(fake.wsUrl, (s) => states.push(s))
    stream.watch('SOL')
    await vi.waitFor(() => expect(stream.latest('SOL')).toBeDefined())
    const first = stream.latest('SOL')?.at ?? 0
    states.length = 0
    await new Promise((r) => setTimeout(r, 5))
    fake.dropStreams()
    await vi.waitFor(() => expect(states).toEqual(['connecting', 'open']))
    // the fresh subscription's first push (same values, a later arrival)
    await vi.waitFor(() =>
      expect(stream.latest('SOL')?.at ?? 0).toBeGreaterThan(first),
    )
    exchange.setMark('SOL', '150.25')
    await vi.waitFor(() => expect(stream.latest('SOL')?.mark).toBe('150.25'))
    exchange.setMark('SOL', null)
  })

  test('behavior: close() stops reconnecting', async () => {
    const states: SocketState[] = []
    const stream = open(fake.wsUrl, (s) => states.push(s))
    await vi.waitFor(() => expect(stream.state()).toBe('open'))
    const before = fake.streamClients()
    stream.close()
    expect(stream.state()).toBe('closed')
    await vi.waitFor(() => expect(fake.streamClients()).toBe(before - 1))
    await new Promise((r) => setTimeout(r, 150))
    expect(fake.streamClients()).toBe(before - 1)
    expect(states.at(-1)).toBe('closed')
  })
})

describe('createHlMarketStream against a misbehaving server', () => {
  let wss: WebSocketServer
  let url: string
  const received: string[] = []

  beforeAll(async () => {
    wss = new WebSocketServer({ host: '127.0.0.1', port: 0 })
    await new Promise<void>((r) => wss.once('listening', () => r()))
    url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`
    wss.on('connection', (ws) => {
      ws.send('Websocket connection established.')
      ws.on('message', (d) => {
        received.push(d.toString())
        const frame = (channel: string, data: unknown) =>
          ws.send(JSON.stringify({ channel, data }))
        ws.send('{not json')
        ws.send('null')
        ws.send('[1,2]')
        frame('activeAssetCtx', null)
        frame('activeAssetCtx', { coin: 'BTC' })
        frame('activeAssetCtx', { coin: 'BTC', ctx: { markPx: 'abc' } })
        frame('activeAssetCtx', {
          coin: 'BTC',
          ctx: { markPx: '1', funding: null },
        })
        frame('activeAssetCtx', {
          coin: 'UNWATCHED',
          ctx: { markPx: '1', funding: '0' },
        })
        frame('error', 'Invalid subscription: {}')
        frame('activeAssetCtx', {
          coin: 'BTC',
          ctx: { markPx: '100.50', funding: '0.0000125', impactPxs: ['x'] },
        })
      })
    })
  })

  afterAll(async () => {
    for (const c of wss.clients) c.terminate()
    await new Promise((r) => wss.close(r))
  })

  test('behavior: malformed frames are ignored; the valid one is read as REST would', async () => {
    const stream = open(url)
    stream.watch('BTC')
    await vi.waitFor(() => expect(stream.latest('BTC')).toBeDefined())
    expect(stream.latest('BTC')).toEqual({
      mark: '100.5',
      fundingRate: '0.0000125',
      at: expect.any(Number),
    })
    expect(stream.latest('UNWATCHED')).toBeUndefined()
    expect(stream.state()).toBe('open')
    expect(JSON.parse(received[0] ?? '')).toEqual({
      method: 'subscribe',
      subscription: { type: 'activeAssetCtx', coin: 'BTC' },
    })
  })

  test('behavior: pings {"method":"ping"} on its interval', async () => {
    const stream = createHlMarketStream({ url, pingEveryMs: 20 })
    streams.push(stream)
    await vi.waitFor(() =>
      expect(
        received.filter((t) => t === '{"method":"ping"}').length,
      ).toBeGreaterThanOrEqual(2),
    )
    stream.close()
  })
})
