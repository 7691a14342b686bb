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

/**
 * Quotes come from the WebSocket while it flows; when it drops and
 * cannot reconnect they come from one REST read per venue, and the stream
 * serves again once it is back.
 */
describe('Hyperliquid quotes: the stream first, REST when it is down', () => {
  const exchange = createSimExchange({
    venue: 'hl',
    seed: 12,
    clock: { now: () => Date.now() },
  })
  let fake: HyperliquidFake
  let stream: MarketStream
  let restCtxReads = 0
  let adapter: ReturnType<typeof createHyperliquidAdapter>

  beforeAll(async () => {
    fake = await startHyperliquidFake({
      exchange,
      port: 0,
      streamIntervalMs: 50,
    })
    stream = createHlMarketStream({ url: hlWsUrl(fake.url), minDelayMs: 20 })
    adapter = createHyperliquidAdapter({
      baseUrl: fake.url,
      isMainnet: true,
      marketStream: stream,
      streamMaxAgeMs: 300,
      marketMaxAgeMs: 0,
      fetchFn: (async (url: string, init?: RequestInit) => {
        if (String(init?.body).includes('metaAndAssetCtxs')) restCtxReads++
        return fetch(url, init)
      }) as typeof fetch,
    })
  })
  afterAll(async () => {
    stream?.close()
    await fake?.close()
  })

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
