import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type WebSocket as PeerSocket, WebSocketServer } from 'ws'
import {
  type LighterFake,
  startLighterFake,
} from '../../sim/lighterFake/startLighterFake.js'
import { createSimExchange } from '../../sim/simExchange.js'
import type { MarketStream } from '../../wire/marketStream.js'
import type { SocketState } from '../../wire/reconnectingSocket.js'
import {
  type LighterMarket,
  parseLighterMarkets,
} from '../adapter/lighterMarkets.js'
import { decField, isObj } from '../adapter/lighterWireValue.js'
import {
  createLighterMarketStream,
  lighterWsUrl,
} from './createLighterMarketStream.js'
import {
  hourlyFromRestRate,
  hourlyFromStreamRate,
  restRateFromHourly,
  streamRateFromHourly,
} from './lighterFundingUnits.js'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

async function waitFor(ok: () => boolean, what: string, ms = 5_000) {
  const until = Date.now() + ms
  while (!ok()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`)
    await sleep(5)
  }
}

describe('lighterWsUrl', () => {
  test('maps REST bases to the /stream WebSocket', () => {
    expect(lighterWsUrl('https://mainnet.zklighter.elliot.ai')).toBe(
      'wss://mainnet.zklighter.elliot.ai/stream',
    )
    expect(lighterWsUrl('https://api.rh.lighter.xyz/')).toBe(
      'wss://api.rh.lighter.xyz/stream',
    )
    expect(lighterWsUrl('http://127.0.0.1:4567')).toBe(
      'ws://127.0.0.1:4567/stream',
    )
    expect(() => lighterWsUrl('ftp://x')).toThrow(RangeError)
  })

  test('funding units: stream percent per hour, REST fraction per 8 h → fraction per hour', () => {
    expect(hourlyFromStreamRate('0.0012')).toBe('0.000012')
    expect(hourlyFromRestRate(0.000096)).toBe('0.000012')
    expect(streamRateFromHourly('0.000012')).toBe('0.0012')
    expect(restRateFromHourly('0.000012')).toBe('0.000096')
    // one REST unit is 12.5 stream units
    expect(hourlyFromRestRate('0.0001')).toBe(hourlyFromStreamRate('0.00125'))
    expect(hourlyFromStreamRate(streamRateFromHourly('-0.0000123456789'))).toBe(
      '-0.0000123456789',
    )
    expect(hourlyFromRestRate(restRateFromHourly('-0.0000123456789'))).toBe(
      '-0.0000123456789',
    )
  })
})

/** The client against the Lighter fake over a real 127.0.0.1 socket. */
describe('createLighterMarketStream over the Lighter fake', () => {
  // a still clock: marks move only when a test pins them
  const exchange = createSimExchange({
    venue: 'lighter-mainnet',
    seed: 5,
    clock: { now: () => Date.parse('2026-03-01T10:20:00Z') },
  })
  let fake: LighterFake
  let markets: LighterMarket[]
  let stream: MarketStream
  const states: SocketState[] = []
  const symbolOf = (id: number) =>
    markets.find((m) => m.marketId === id)?.symbol

  const rest = async (path: string) =>
    (await (await fetch(`${fake.url}/api/v1/${path}`)).json()) as Record<
      string,
      unknown
    >
  /** what the adapter's REST path reads: marks and lighter rates */
  async function restValues() {
    const list = parseLighterMarkets(await rest('orderBookDetails'))
    const raw = await rest('funding-rates')
    const rates = new Map<number, string>()
    for (const r of raw.funding_rates as unknown[]) {
      if (isObj(r) && r.exchange === 'lighter') {
        rates.set(
          r.market_id as number,
          hourlyFromRestRate(decField(r.rate) as string),
        )
      }
    }
    return list.map((m) => ({
      symbol: m.symbol,
      mark: m.mark,
      fundingRate: rates.get(m.marketId),
    }))
  }
  const bumped = (mark: string, pct: number, decimals: number) =>
    (Number(mark) * (1 + pct / 100)).toFixed(decimals)

  beforeAll(async () => {
    fake = await startLighterFake({
      exchange,
      venue: 'lighter-mainnet',
      streamIntervalMs: 20,
    })
    markets = parseLighterMarkets(await rest('orderBookDetails'))
    stream = createLighterMarketStream({
      url: fake.wsUrl,
      symbolOf,
      minDelayMs: 20,
      onState: (s) => states.push(s),
    })
  })
  afterAll(async () => {
    stream.close()
    await fake.close()
  })

  test('marks and funding match orderBookDetails / funding-rates for every market', async () => {
    expect(fake.wsUrl).toBe(`${fake.url.replace('http', 'ws')}/stream`)
    const expected = await restValues()
    expect(expected.length).toBeGreaterThan(1)
    await waitFor(
      () => expected.every((e) => stream.latest(e.symbol) !== undefined),
      'every market',
    )
    const t0 = Date.now()
    for (const e of expected) {
      const q = stream.latest(e.symbol)
      expect(q?.mark).toBe(e.mark)
      expect(q?.fundingRate).toBe(e.fundingRate)
      expect(q?.bid).toBeUndefined()
      expect(q?.ask).toBeUndefined()
      expect(t0 - (q?.at ?? 0)).toBeLessThan(1_000)
    }
    stream.watch('BTC') // a no-op: every market comes anyway
    expect(stream.latest('NOPE')).toBeUndefined()
    expect(stream.state()).toBe('open')
  })

  test('updates follow the engine when the mark moves', async () => {
    const btc = markets.find((m) => m.symbol === 'BTC') as LighterMarket
    const before = stream.latest('BTC')?.mark as string
    exchange.setMark('BTC', bumped(before, 1, btc.priceDecimals))
    const want = (await restValues()).find((e) => e.symbol === 'BTC')?.mark
    expect(want).not.toBe(before)
    await waitFor(() => stream.latest('BTC')?.mark === want, 'the new mark')
  })

  test('after dropStreams() it reconnects, subscribes again and values flow', async () => {
    await waitFor(() => fake.streamClients() === 1, 'one client')
    const btc = markets.find((m) => m.symbol === 'BTC') as LighterMarket
    states.length = 0
    expect(fake.dropStreams()).toBe(1)
    await waitFor(() => states.includes('connecting'), 'the drop noticed')
    const dropped = Date.now()
    // a move the dropped socket never saw
    exchange.setMark(
      'BTC',
      bumped(stream.latest('BTC')?.mark as string, -2, btc.priceDecimals),
    )
    const want = (await restValues()).find((e) => e.symbol === 'BTC')?.mark
    await waitFor(
      () => stream.state() === 'open' && fake.streamClients() === 1,
      'the reconnect',
    )
    await waitFor(() => stream.latest('BTC')?.mark === want, 'fresh values')
    expect(stream.latest('ETH')?.at ?? 0).toBeGreaterThanOrEqual(dropped)
    expect(states.at(-1)).toBe('open')
  })

  test('close() stops reconnecting', async () => {
    const other = createLighterMarketStream({
      url: fake.wsUrl,
      symbolOf,
      minDelayMs: 10,
    })
    await waitFor(() => other.state() === 'open', 'the second client')
    await waitFor(() => fake.streamClients() === 2, 'two clients')
    other.close()
    expect(other.state()).toBe('closed')
    await waitFor(() => fake.streamClients() === 1, 'the close')
    await sleep(150) // many reconnect delays
    expect(fake.streamClients()).toBe(1)
    expect(other.state()).toBe('closed')
  })
})

/** The client against a scripted server: what it sends, what it ignores. */
describe('createLighterMarketStream frames', () => {
  let wss: WebSocketServer
  let peer: PeerSocket | undefined
  const received: string[] = []
  let stream: MarketStream
  const ids: Record<number, string> = { 0: 'ETH', 1: 'BTC' }

  beforeAll(async () => {
    wss = new WebSocketServer({ host: '127.0.0.1', port: 0 })
    await once(wss, 'listening')
    wss.on('connection', (ws) => {
      peer = ws
      ws.on('message', (d) => received.push(d.toString()))
    })
    const { port } = wss.address() as AddressInfo
    stream = createLighterMarketStream({
      url: `ws://127.0.0.1:${port}/stream`,
      symbolOf: (id) => ids[id],
      pingMs: 30,
      minDelayMs: 20,
    })
    await waitFor(() => received.length > 0, 'the subscription')
  })
  afterAll(async () => {
    stream.close()
    for (const c of wss.clients) c.terminate()
    await new Promise((r) => wss.close(r))
  })
  const send = (frame: unknown) =>
    peer?.send(typeof frame === 'string' ? frame : JSON.stringify(frame))

  test('subscribes to market_stats/all and pings', async () => {
    expect(JSON.parse(received[0] as string)).toEqual({
      type: 'subscribe',
      channel: 'market_stats/all',
    })
    await waitFor(() => received.includes('{"type":"ping"}'), 'a ping')
  })

  test('reads the map and single forms, answers pings, ignores malformed frames', async () => {
    send({
      channel: 'market_stats:all',
      market_stats: {
        '0': {
          market_id: 0,
          mark_price: '2000.50',
          current_funding_rate: '0.0012',
          funding_rate: '0.0500',
        },
        // no market_id inside: the key names the market
        '1': { mark_price: '64000.0', current_funding_rate: '-0.0025' },
      },
      timestamp: 1,
      type: 'subscribed/market_stats',
    })
    await waitFor(() => stream.latest('BTC') !== undefined, 'the snapshot')
    expect(stream.latest('ETH')).toMatchObject({
      mark: '2000.5',
      fundingRate: '0.000012',
    })
    expect(stream.latest('BTC')).toMatchObject({
      mark: '64000',
      fundingRate: '-0.000025',
    })
    const snapshotAt = stream.latest('BTC')?.at ?? 0

    for (const bad of [
      'not json',
      '[1,2]',
      'null',
      '42',
      { type: 'update/market_stats' },
      { type: 'update/market_stats', market_stats: 'x' },
      { type: 'update/market_stats', market_stats: { '0': 'nope' } },
      {
        type: 'update/market_stats',
        market_stats: { zz: { mark_price: '1' } },
      },
      {
        type: 'update/market_stats',
        market_stats: {
          '0': { market_id: 0, mark_price: 'abc', current_funding_rate: {} },
        },
      },
      {
        type: 'update/market_stats',
        market_stats: { market_id: 'x', mark_price: '5' },
      },
      { type: 'update/trade', market_stats: { '0': { mark_price: '1' } } },
      { type: 'error', code: 30012, message: 'failed to subscribe' },
    ]) {
      send(bad)
    }
    peer?.send(Buffer.from([0xff, 0xfe, 0x00]))
    send({ type: 'ping' })
    await waitFor(() => received.includes('{"type":"pong"}'), 'the pong')

    await sleep(5)
    // an update of the all channel that moves ETH only
    send({
      channel: 'market_stats:all',
      market_stats: { '0': { market_id: 0, mark_price: '2001' } },
      timestamp: 2,
      type: 'update/market_stats',
    })
    await waitFor(() => stream.latest('ETH')?.mark === '2001', 'the update')
    // ETH keeps its funding; BTC, left out, is still current
    expect(stream.latest('ETH')?.fundingRate).toBe('0.000012')
    expect(stream.latest('BTC')?.at ?? 0).toBeGreaterThan(snapshotAt)
    expect(stream.latest('BTC')?.mark).toBe('64000')

    // the single-market form
    send({
      channel: 'market_stats:1',
      market_stats: { market_id: 1, mark_price: '65000', symbol: 'BTC' },
      timestamp: 3,
      type: 'update/market_stats',
    })
    await waitFor(() => stream.latest('BTC')?.mark === '65000', 'single form')
    expect(stream.latest('BTC')?.fundingRate).toBe('-0.000025')
    expect(stream.state()).toBe('open')
  })
})
