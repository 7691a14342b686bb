import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { WebSocket } from 'ws'
import {
  hourlyFromRestRate,
  streamRateFromHourly,
} from '../../lighter/stream/lighterFundingUnits.js'
import { createSimExchange } from '../simExchange.js'
import { connectFrameClient, type Frame } from '../wsFrameClient.js'
import { type LighterFake, startLighterFake } from './startLighterFake.js'

const connect = connectFrameClient

/** The Lighter fake's `/stream`: market_stats over the engine. */
describe('Lighter fake WebSocket', () => {
  const exchange = createSimExchange({
    venue: 'lighter-mainnet',
    seed: 9,
    clock: { now: () => Date.parse('2026-03-01T10:20:00Z') },
  })
  let fake: LighterFake
  beforeAll(async () => {
    fake = await startLighterFake({
      exchange,
      venue: 'lighter-mainnet',
      streamIntervalMs: 20,
    })
  })
  afterAll(() => fake.close())

  const rest = async (path: string) =>
    (await (await fetch(`${fake.url}/api/v1/${path}`)).json()) as Record<
      string,
      Frame[]
    >

  test('market_stats/all: subscribed then updates, values as the REST reads', async () => {
    const c = await connect(fake.wsUrl)
    expect(await c.next((f) => f.type === 'connected')).toEqual({
      type: 'connected',
    })
    c.send({ type: 'subscribe', channel: 'market_stats/all' })
    const sub = await c.next((f) => f.type === 'subscribed/market_stats')
    expect(sub.channel).toBe('market_stats:all')
    const details = (await rest('orderBookDetails')).order_book_details ?? []
    const rates = (await rest('funding-rates')).funding_rates ?? []
    const stats = sub.market_stats as Record<string, Frame>
    expect(Object.keys(stats).sort()).toEqual(
      details.map((d) => String(d.market_id)).sort(),
    )
    for (const d of details) {
      const s = stats[String(d.market_id)] as Frame
      const rate = rates.find((r) => r.market_id === d.market_id)?.rate
      expect(s).toMatchObject({
        market_id: d.market_id,
        symbol: d.symbol,
        mark_price: d.mark_price,
        index_price: d.index_price,
        current_funding_rate: streamRateFromHourly(
          hourlyFromRestRate(rate as number),
        ),
      })
      // a string on the stream, a number in the REST spec
      expect(Number(s.last_trade_price)).toBe(d.last_trade_price)
      expect(s.funding_timestamp).toBe(Date.parse('2026-03-01T10:00:00Z'))
    }
    const upd = await c.next((f) => f.type === 'update/market_stats')
    expect(upd.channel).toBe('market_stats:all')
    expect(typeof upd.timestamp).toBe('number')
    c.ws.terminate()
  })

  test('market_stats/<id>, ping/pong, unknown channels, unsubscribe', async () => {
    const c = await connect(fake.wsUrl)
    c.send({ type: 'subscribe', channel: 'market_stats/1' })
    const sub = await c.next((f) => f.type === 'subscribed/market_stats')
    expect(sub.channel).toBe('market_stats:1')
    expect((sub.market_stats as Frame).market_id).toBe(1)
    expect((sub.market_stats as Frame).symbol).toBe('BTC')
    await c.next((f) => f.type === 'update/market_stats')

    c.send({ type: 'ping' })
    await c.next((f) => f.type === 'pong')
    for (const bad of [
      { type: 'subscribe', channel: 'order_book/0' },
      { type: 'subscribe', channel: 'market_stats/999' },
      { type: 'hello' },
    ]) {
      c.send(bad)
      const e = await c.next((f) => f.type === 'error')
      expect(e.code).toBe(30012)
    }
    c.ws.send('not json')
    await c.next((f) => f.type === 'error')

    c.send({ type: 'unsubscribe', channel: 'market_stats/1' })
    await new Promise((r) => setTimeout(r, 40))
    c.frames.length = 0
    await new Promise((r) => setTimeout(r, 80))
    expect(c.frames.filter((f) => f.type === 'update/market_stats')).toEqual([])
    c.ws.terminate()
  })

  test('frames do not count against the REST rate limits', async () => {
    const before = JSON.stringify(fake.rateLimitUsage())
    const c = await connect(fake.wsUrl)
    for (let i = 0; i < 100; i++) c.send({ type: 'ping' })
    c.send({ type: 'subscribe', channel: 'market_stats/all' })
    await c.next((f) => f.type === 'subscribed/market_stats')
    expect(c.frames.filter((f) => f.type === 'pong').length).toBe(100)
    expect(JSON.stringify(fake.rateLimitUsage())).toBe(before)
    c.ws.terminate()
  })

  test('dropStreams() terminates every socket; other paths are refused', async () => {
    // the sockets earlier tests terminated
    for (let i = 0; fake.streamClients() > 0 && i < 200; i++) {
      await new Promise((r) => setTimeout(r, 5))
    }
    const a = await connect(fake.wsUrl)
    const b = await connect(fake.wsUrl)
    const closed = Promise.all([a, b].map((c) => once(c.ws, 'close')))
    expect(fake.streamClients()).toBe(2)
    expect(fake.dropStreams()).toBe(2)
    expect(fake.streamClients()).toBe(0)
    await closed
    await expect(
      connect(`${fake.url.replace('http', 'ws')}/other`),
    ).rejects.toThrow()
  })

  test('an outage refuses upgrades', async () => {
    exchange.setFaults({ outage: true })
    try {
      await expect(connect(fake.wsUrl)).rejects.toThrow(/503/)
    } finally {
      exchange.setFaults({ outage: false })
    }
  })

  test('close() closes the sockets and the server', async () => {
    const own = await startLighterFake({ exchange, venue: 'lighter-mainnet' })
    const c = await connect(own.wsUrl)
    const closed = once(c.ws, 'close')
    await own.close()
    await closed
    expect(own.streamClients()).toBe(0)
    await expect(connect(own.wsUrl)).rejects.toThrow()
  })
})

function once(ws: WebSocket, event: 'close'): Promise<void> {
  return new Promise((resolve) => ws.once(event, () => resolve()))
}
