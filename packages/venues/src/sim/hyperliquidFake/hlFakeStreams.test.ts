import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { WebSocket } from 'ws'
import { createSimExchange, type SimExchange } from '../simExchange.js'
import { T0 } from '../simTestKit.js'
import {
  type HyperliquidFake,
  startHyperliquidFake,
} from './startHyperliquidFake.js'

type Frame = { channel: string; data?: unknown }

/** A raw client that records every frame it receives. */
async function connect(url: string) {
  const ws = new WebSocket(url)
  const frames: Frame[] = []
  ws.on('message', (d) => frames.push(JSON.parse(d.toString())))
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve())
    ws.once('error', reject)
  })
  return {
    ws,
    frames,
    send: (msg: unknown) => ws.send(JSON.stringify(msg)),
    of: (channel: string) => frames.filter((f) => f.channel === channel),
  }
}

let fake: HyperliquidFake
let exchange: SimExchange
const sockets: WebSocket[] = []

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
  for (const s of sockets) s.terminate()
  await fake.close()
})

async function client() {
  const c = await connect(fake.wsUrl)
  sockets.push(c.ws)
  return c
}

async function restCtx(coin: string) {
  const dex = coin.includes(':') ? coin.split(':')[0] : undefined
  const res = await fetch(`${fake.url}/info`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'metaAndAssetCtxs', ...(dex ? { dex } : {}) }),
  })
  const [meta, ctxs] = (await res.json()) as [
    { universe: { name: string }[] },
    unknown[],
  ]
  return ctxs[meta.universe.findIndex((u) => u.name === coin)]
}

describe('hlFakeStreams', () => {
  test('behavior: wsUrl is the fake at /ws; other upgrade paths are refused', async () => {
    expect(fake.wsUrl).toBe(`${fake.url.replace('http://', 'ws://')}/ws`)
    const other = new WebSocket(`${fake.url.replace('http://', 'ws://')}/nope`)
    await expect(
      new Promise((resolve, reject) => {
        other.once('open', resolve)
        other.once('error', reject)
      }),
    ).rejects.toThrow()
  })

  test('behavior: subscribe is acknowledged, then the ctx of /info metaAndAssetCtxs follows', async () => {
    const c = await client()
    const subscription = { type: 'activeAssetCtx', coin: 'BTC' }
    c.send({ method: 'subscribe', subscription })
    await vi.waitFor(() =>
      expect(c.of('activeAssetCtx').length).toBeGreaterThanOrEqual(1),
    )
    expect(c.frames[0]).toEqual({
      channel: 'subscriptionResponse',
      data: { method: 'subscribe', subscription },
    })
    expect(c.of('activeAssetCtx')[0]?.data).toEqual({
      coin: 'BTC',
      ctx: await restCtx('BTC'),
    })
  })

  test('behavior: a builder-dex coin streams its own dex ctx', async () => {
    const c = await client()
    c.send({
      method: 'subscribe',
      subscription: { type: 'activeAssetCtx', coin: 'xyz:TSLA' },
    })
    await vi.waitFor(() =>
      expect(c.of('activeAssetCtx').length).toBeGreaterThanOrEqual(1),
    )
    expect(c.of('activeAssetCtx')[0]?.data).toEqual({
      coin: 'xyz:TSLA',
      ctx: await restCtx('xyz:TSLA'),
    })
  })

  test('behavior: the ctx is pushed every interval; a moved mark shows in the next push', async () => {
    const c = await client()
    c.send({
      method: 'subscribe',
      subscription: { type: 'activeAssetCtx', coin: 'ETH' },
    })
    await vi.waitFor(() =>
      expect(c.of('activeAssetCtx').length).toBeGreaterThanOrEqual(1),
    )
    await vi.waitFor(() =>
      expect(c.of('activeAssetCtx').length).toBeGreaterThanOrEqual(2),
    )
    exchange.setMark('ETH', '2345.6')
    const seen = c.of('activeAssetCtx').length
    await vi.waitFor(() =>
      expect(c.of('activeAssetCtx').length).toBeGreaterThan(seen),
    )
    const frames = c.of('activeAssetCtx')
    const data = frames[frames.length - 1]?.data as { ctx: { markPx: string } }
    expect(data.ctx.markPx).toBe('2345.6')
    expect(data.ctx).toEqual(await restCtx('ETH'))
    exchange.setMark('ETH', null)
  })

  test('behavior: ping is answered pong; allMids streams mids per dex', async () => {
    const c = await client()
    c.send({ method: 'ping' })
    c.send({ method: 'subscribe', subscription: { type: 'allMids' } })
    c.send({
      method: 'subscribe',
      subscription: { type: 'allMids', dex: 'xyz' },
    })
    await vi.waitFor(() =>
      expect(
        new Set(
          c
            .of('allMids')
            .map((f) => JSON.stringify((f.data as { dex?: string }).dex)),
        ),
      ).toHaveProperty('size', 2),
    )
    expect(c.of('pong')).toEqual([{ channel: 'pong' }])
    const mids = c.of('allMids').map((f) => f.data) as {
      mids: Record<string, string>
      dex?: string
    }[]
    const main = mids.find((m) => m.dex === undefined)
    const xyz = mids.find((m) => m.dex === 'xyz')
    expect(main?.dex).toBeUndefined()
    expect(main?.mids.BTC).toBe(exchange.quote('BTC').mark)
    expect(xyz).toEqual({
      mids: { 'xyz:TSLA': exchange.quote('xyz:TSLA').mark },
      dex: 'xyz',
    })
  })

  test('behavior: errors for a repeated, an unknown and an absent subscription', async () => {
    const c = await client()
    const sub = { type: 'activeAssetCtx', coin: 'BTC' }
    c.send({ method: 'subscribe', subscription: sub })
    c.send({ method: 'subscribe', subscription: sub })
    c.send({
      method: 'subscribe',
      subscription: { type: 'activeAssetCtx', coin: 'NOPE' },
    })
    c.send({ method: 'unsubscribe', subscription: sub })
    c.send({ method: 'unsubscribe', subscription: sub })
    c.ws.send('not json')
    c.send({ method: 'ping' })
    await vi.waitFor(() => expect(c.of('pong')).toHaveLength(1))
    expect(c.of('error').map((f) => f.data)).toEqual([
      `Already subscribed: ${JSON.stringify(sub)}`,
      'Invalid subscription: {"type":"activeAssetCtx","coin":"NOPE"}',
      `Already unsubscribed: ${JSON.stringify(sub)}`,
    ])
    expect(c.of('subscriptionResponse').map((f) => f.data)).toEqual([
      { method: 'subscribe', subscription: sub },
      { method: 'unsubscribe', subscription: sub },
    ])
    // unsubscribed: nothing more comes
    const pushed = c.of('activeAssetCtx').length
    await new Promise((r) => setTimeout(r, 100))
    expect(c.of('activeAssetCtx')).toHaveLength(pushed)
  })

  test('behavior: an outage pushes nothing until it ends', async () => {
    const c = await client()
    c.send({
      method: 'subscribe',
      subscription: { type: 'activeAssetCtx', coin: 'SOL' },
    })
    await vi.waitFor(() =>
      expect(c.of('activeAssetCtx').length).toBeGreaterThanOrEqual(1),
    )
    exchange.setFaults({ outage: true })
    await new Promise((r) => setTimeout(r, 50))
    const during = c.of('activeAssetCtx').length
    exchange.setMark('SOL', '123')
    await new Promise((r) => setTimeout(r, 100))
    expect(c.of('activeAssetCtx')).toHaveLength(during)
    exchange.setFaults({})
    await vi.waitFor(() =>
      expect(c.of('activeAssetCtx').length).toBeGreaterThan(during),
    )
    exchange.setMark('SOL', null)
  })

  test('behavior: stream reads spend no REST weight', async () => {
    const before = JSON.stringify(fake.rateLimitUsage())
    const c = await client()
    for (let i = 0; i < 20; i++) c.send({ method: 'ping' })
    await vi.waitFor(() => expect(c.of('pong')).toHaveLength(20))
    expect(JSON.stringify(fake.rateLimitUsage())).toBe(before)
  })

  test('behavior: clearinghouseState streams the /info answer of a user, at most 10 distinct users per IP', async () => {
    const user = (i: number) => `0x${String(i + 1).padStart(40, '0')}`
    const owner = user(0)
    exchange.faucet(owner, 10_000)
    const rest = await fetch(`${fake.url}/info`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'clearinghouseState', user: owner }),
    }).then((r) => r.json())
    const a = await client()
    const sub = (i: number) => ({
      method: 'subscribe',
      subscription: { type: 'clearinghouseState', user: user(i) },
    })
    a.send(sub(0))
    await vi.waitFor(() =>
      expect(a.of('clearinghouseState')[0]?.data).toEqual({
        dex: '',
        user: owner,
        clearinghouseState: rest,
      }),
    )
    // nine more users on another socket of the same IP: ten in all
    const b = await client()
    for (let i = 1; i < 10; i++) b.send(sub(i))
    await vi.waitFor(() => expect(b.of('subscriptionResponse')).toHaveLength(9))
    // an eleventh is refused; a user already tracked is not counted again
    b.send(sub(10))
    b.send({
      method: 'subscribe',
      subscription: { type: 'clearinghouseState', user: owner, dex: '' },
    })
    await vi.waitFor(() =>
      expect(b.of('error').map((f) => f.data)).toEqual([
        'Cannot track more than 10 total users.',
      ]),
    )
    await vi.waitFor(() =>
      expect(b.of('subscriptionResponse')).toHaveLength(10),
    )
    // unsubscribing frees the slot
    b.send({
      method: 'unsubscribe',
      subscription: { type: 'clearinghouseState', user: user(9) },
    })
    await vi.waitFor(() =>
      expect(b.of('subscriptionResponse')).toHaveLength(11),
    )
    b.send(sub(10))
    await vi.waitFor(() =>
      expect(b.of('subscriptionResponse')).toHaveLength(12),
    )
    expect(b.of('error')).toHaveLength(1)
    a.ws.terminate()
    b.ws.terminate()
  })

  test('behavior: dropStreams terminates every socket; close leaves none', async () => {
    await client()
    expect(fake.streamClients()).toBeGreaterThan(0)
    fake.dropStreams()
    await vi.waitFor(() => expect(fake.streamClients()).toBe(0))
  })
})
