import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import {
  type HyperliquidFake,
  startHyperliquidFake,
} from '../../sim/hyperliquidFake/startHyperliquidFake.js'
import { createSimExchange } from '../../sim/simExchange.js'
import type { MarketStream } from '../../wire/marketStream.js'
import {
  createHlMarketStream,
  hlWsUrl,
} from '../stream/createHlMarketStream.js'
import { createHyperliquidAdapter } from './createHyperliquidAdapter.js'

/** Accounts to stream; Hyperliquid never needs their keys. */
const streamed = (users: readonly string[]) =>
  users.map((owner) => ({
    owner,
    credential: () => Promise.reject(new Error('not needed for a user stream')),
  }))

/**
 * A Hyperliquid fake streaming every 50 ms, the stream client, and an
 * adapter on both whose every `/info` body is shown to `onInfo`.
 */
async function streamingBed(
  seed: number,
  onInfo: (body: Record<string, unknown>) => void,
  options: { marketMaxAgeMs?: number } = {},
) {
  const exchange = createSimExchange({
    venue: 'hl',
    seed,
    clock: { now: () => Date.now() },
  })
  const fake = await startHyperliquidFake({
    exchange,
    port: 0,
    streamIntervalMs: 50,
  })
  const stream = createHlMarketStream({
    url: hlWsUrl(fake.url),
    minDelayMs: 20,
  })
  const adapter = createHyperliquidAdapter({
    baseUrl: fake.url,
    isMainnet: true,
    marketStream: stream,
    streamMaxAgeMs: 300,
    ...options,
    fetchFn: (async (url: string, init?: RequestInit) => {
      onInfo(JSON.parse(String(init?.body ?? '{}')))
      return fetch(url, init)
    }) as typeof fetch,
  })
  return {
    exchange,
    fake,
    stream,
    adapter,
    async close() {
      stream.close()
      await fake.close()
    },
  }
}

/**
 * Quotes come from the WebSocket while it flows; when it drops and
 * cannot reconnect they come from one REST read per venue, and the stream
 * serves again once it is back.
 */
describe('Hyperliquid quotes: the stream first, REST when it is down', () => {
  let bed: Awaited<ReturnType<typeof streamingBed>>
  let exchange: ReturnType<typeof createSimExchange>
  let fake: HyperliquidFake
  let stream: MarketStream
  let restCtxReads = 0
  let adapter: ReturnType<typeof createHyperliquidAdapter>

  beforeAll(async () => {
    bed = await streamingBed(
      12,
      (body) => {
        if (body.type === 'metaAndAssetCtxs') restCtxReads++
      },
      { marketMaxAgeMs: 0 },
    )
    ;({ exchange, fake, stream, adapter } = bed)
  })
  afterAll(() => bed?.close())

  const quoteSoon = async () => {
    const q = await adapter.quote('BTC')
    await new Promise((r) => setTimeout(r, 20))
    return q
  }

  test('behavior: a dropped stream falls back to REST and recovers', async () => {
    await adapter.rules('BTC')
    await adapter.quote('BTC') // asks the stream for BTC
    await vi.waitFor(() => expect(stream.latest('BTC')).toBeDefined())
    // streaming: no REST read for quotes
    let reads = restCtxReads
    for (let i = 0; i < 20; i++) await quoteSoon()
    expect(restCtxReads).toBe(reads)

    // the stream drops and cannot come back: REST serves, fresh each time
    fake.pauseStreams(true)
    fake.dropStreams()
    await new Promise((r) => setTimeout(r, 350))
    exchange.setMark('BTC', '65432')
    reads = restCtxReads
    const q = await adapter.quote('BTC')
    expect(q.mark).toBe('65432')
    expect(restCtxReads).toBeGreaterThan(reads)

    // back: the stream reconnects, subscribes again and serves
    fake.pauseStreams(false)
    await vi.waitFor(() => expect(stream.state()).toBe('open'), {
      timeout: 3_000,
    })
    await vi.waitFor(
      () => {
        const s = stream.latest('BTC')
        expect(s && Date.now() - s.at < 100).toBe(true)
      },
      { timeout: 3_000 },
    )
    reads = restCtxReads
    for (let i = 0; i < 10; i++) await quoteSoon()
    expect(restCtxReads).toBe(reads)
    exchange.setMark('BTC', null)
  })
})

/**
 * Positions of the busiest accounts come from the user stream
 * (`clearinghouseState`, at most 10 users per IP); the others, and a
 * streamed account whose stream went quiet, from REST.
 */
describe('Hyperliquid positions: the user stream for the busiest, REST for the rest', () => {
  let bed: Awaited<ReturnType<typeof streamingBed>>
  let exchange: ReturnType<typeof createSimExchange>
  let fake: HyperliquidFake
  let stream: ReturnType<typeof createHlMarketStream>
  let restReads: string[] = []
  let adapter: ReturnType<typeof createHyperliquidAdapter>
  const users = Array.from(
    { length: 12 },
    (_, i) => `0x${String(i + 1).padStart(40, 'a')}`,
  )
  const cred = (owner: string) => ({
    owner,
    venue: 'hl' as const,
    accountIndex: null,
    credentialRef: null,
    secret: null,
  })

  beforeAll(async () => {
    bed = await streamingBed(13, (body) => {
      if (body.type === 'clearinghouseState') {
        restReads.push(String(body.user))
      }
    })
    ;({ exchange, fake, stream, adapter } = bed)
    for (const u of users) exchange.faucet(u, 10_000)
  })
  afterAll(() => bed?.close())

  test('behavior: the first 10 accounts named are streamed, read without a request, and REST serves once a stream is quiet', async () => {
    await adapter.rules('BTC')
    adapter.streamAccounts?.(streamed(users))
    expect(stream.watchedUsers()).toEqual(users.slice(0, 10))
    await vi.waitFor(() =>
      expect(
        users.slice(0, 10).every((u) => adapter.accountStreamed?.(u)),
      ).toBe(true),
    )
    expect(adapter.accountStreamed?.(users[10] as string)).toBe(false)
    // a fill shows in the streamed positions without any request
    const mark = Number(exchange.quote('BTC').mark)
    exchange.place(users[0] as string, {
      market: 'BTC',
      side: 'long',
      size: '0.001',
      price: String(Math.round(mark * 1.01)),
      timeInForce: 'ioc',
      reduceOnly: false,
      clientOrderId: `0x${'1'.repeat(32)}`,
    })
    restReads = []
    await vi.waitFor(async () =>
      expect(
        (await adapter.positions(cred(users[0] as string))).map((p) => p.size),
      ).toEqual(['0.001']),
    )
    for (const u of users.slice(0, 10)) await adapter.positions(cred(u))
    expect(restReads).toEqual([])
    // the others are read over REST
    await adapter.positions(cred(users[11] as string))
    expect(restReads).toEqual([users[11]])

    // the busiest change: the stream follows
    adapter.streamAccounts?.(streamed(users.slice(2)))
    expect([...stream.watchedUsers()].sort()).toEqual(users.slice(2).sort())
    expect(adapter.accountStreamed?.(users[0] as string)).toBe(false)

    // the stream goes quiet: REST serves the streamed accounts again
    fake.pauseStreams(true)
    fake.dropStreams()
    await new Promise((r) => setTimeout(r, 350))
    expect(adapter.accountStreamed?.(users[2] as string)).toBe(false)
    restReads = []
    await adapter.positions(cred(users[2] as string))
    expect(restReads).toEqual([users[2]])
    fake.pauseStreams(false)
  })
})
