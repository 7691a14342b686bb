import { roundPrice, type VenueCredential } from '@dn/core'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import {
  type HyperliquidFake,
  startHyperliquidFake,
} from '../../sim/hyperliquidFake/startHyperliquidFake.js'
import { createSimExchange } from '../../sim/simExchange.js'
import type { MarketStream } from '../../wire/marketStream.js'
import { createHyperliquidBinder } from '../binder/createHyperliquidBinder.js'
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
  options: { marketMaxAgeMs?: number; streamMaxAgeMs?: number } = {},
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

/**
 * The venue answers our order before its stream pushes the state with the
 * fill: a positions read in between must not be served the pushed state
 * from before it (a leg just opened would look liquidated).
 */
describe('Hyperliquid positions after our own order', () => {
  let bed: Awaited<ReturnType<typeof streamingBed>>
  let cred: VenueCredential
  const restReads: string[] = []

  beforeAll(async () => {
    // a pushed state stays usable for 10 s: only our order may set it aside
    bed = await streamingBed(
      17,
      (body) => {
        if (body.type === 'clearinghouseState')
          restReads.push(String(body.user))
      },
      { streamMaxAgeMs: 10_000 },
    )
    const wallet = privateKeyToAccount(generatePrivateKey())
    const owner = wallet.address.toLowerCase()
    bed.exchange.faucet(owner, 100_000)
    const binder = createHyperliquidBinder({
      baseUrl: bed.fake.url,
      isMainnet: true,
    })
    const config = {
      feeApproval: false,
      builderAddress: `0x${'00'.repeat(20)}`,
      builderName: 'dn',
      lighterTestnet: false,
    } as const
    const prepared = await binder.prepare(owner, { venue: 'hl' }, config)
    const signatures: Record<string, string> = {}
    for (const r of prepared.requests)
      signatures[r.requestId] = await wallet.signTypedData(
        r.payload as Parameters<typeof wallet.signTypedData>[0],
      )
    await binder.complete(owner, {
      target: { venue: 'hl' },
      ...prepared,
      signatures,
    })
    cred = {
      owner,
      venue: 'hl',
      accountIndex: null,
      credentialRef: prepared.credentialRef,
      secret: prepared.secret,
    }
  })
  afterAll(() => bed?.close())

  test('behavior: the fill shows at once (REST), and the stream serves again once it has pushed it', async () => {
    const { adapter, fake } = bed
    adapter.streamAccounts?.(streamed([cred.owner]))
    await vi.waitFor(() =>
      expect(adapter.accountStreamed?.(cred.owner)).toBe(true),
    )
    expect(await adapter.positions(cred)).toEqual([])
    // the stream holds the flat account while our order fills
    fake.pauseStreams(true)
    const rules = await adapter.rules('BTC')
    const mark = Number((await adapter.quote('BTC')).mark)
    if (!rules) throw new Error('BTC not listed')
    const placed = await adapter.place(cred, {
      market: 'BTC',
      side: 'long',
      size: '0.002',
      price: roundPrice(rules, mark * 1.01, 'up').toFixed(),
      timeInForce: 'ioc',
      reduceOnly: false,
      clientOrderId: `0x${'2'.repeat(32)}`,
    })
    expect(placed.filledBase).toBe('0.002')
    expect(adapter.accountStreamed?.(cred.owner)).toBe(false)
    restReads.length = 0
    expect((await adapter.positions(cred)).map((p) => p.size)).toEqual([
      '0.002',
    ])
    expect(restReads).toEqual([cred.owner])
    // pushes flow again and the quarantine passes: no request
    fake.pauseStreams(false)
    await vi.waitFor(
      () => expect(adapter.accountStreamed?.(cred.owner)).toBe(true),
      {
        timeout: 6_000,
      },
    )
    restReads.length = 0
    expect((await adapter.positions(cred)).map((p) => p.size)).toEqual([
      '0.002',
    ])
    expect(restReads).toEqual([])
  }, 20_000)
})
