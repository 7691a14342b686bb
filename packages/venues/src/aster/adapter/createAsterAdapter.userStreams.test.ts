import {
  type RequestBudget,
  RequestBudgetError,
  type StreamedAccount,
  type VenueCredential,
} from '@dn/core'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { bindAsterWallet } from '../../sim/asterFake/asterTestKit.js'
import {
  type AsterFake,
  startAsterFake,
} from '../../sim/asterFake/startAsterFake.js'
import { createSimExchange } from '../../sim/simExchange.js'
import { createAsterBudget } from './asterTransport.js'
import { type AsterAdapter, createAsterAdapter } from './createAsterAdapter.js'

const HOUR = 3_600_000

/**
 * Positions of streamed Aster accounts: a listenKey stream against the
 * fake, REST `positionRisk` only when an event may have moved a
 * liquidation price, every 120 s, or while the stream is down.
 */
describe('Aster adapter: positions from the user data stream', () => {
  // wall time moved to the middle of an hour (no funding during a test);
  // `skew` moves the adapter, the fake and the engine together
  let skew = HOUR / 2 - (Date.now() % HOUR)
  const clock = { now: () => Date.now() + skew }
  const exchange = createSimExchange({ venue: 'aster', seed: 31, clock })
  let fake: AsterFake
  let adapter: AsterAdapter
  let cred: VenueCredential
  let other: VenueCredential
  let refuse = false
  const sent: string[] = []
  /** listenKey POSTs since the start, never cleared */
  let posts = 0
  const reads = () => sent.filter((r) => r === 'GET /fapi/v3/positionRisk')
  const keyCalls = (method: string) =>
    sent.filter((r) => r === `${method} /fapi/v3/listenKey`)
  /** while set, the streams wait for credentials (no POST, no PUT) */
  let held: Promise<void> | undefined
  const streamed = (...creds: VenueCredential[]): StreamedAccount[] =>
    creds.map((c) => ({
      owner: c.owner,
      credential: async () => {
        await held
        return c
      },
    }))

  beforeAll(async () => {
    fake = await startAsterFake({
      exchange,
      port: 0,
      now: clock.now,
      userStreamIntervalMs: 20,
    })
    const real = createAsterBudget({ clock })
    // routine reads refused while `refuse`: the budget is spent
    const budget: RequestBudget = {
      ...real,
      acquire: (charges, priority, o) =>
        refuse && priority === 'routine'
          ? Promise.reject(new RequestBudgetError('aster: test budget spent'))
          : real.acquire(charges, priority, o),
    }
    adapter = createAsterAdapter({
      baseUrl: fake.url,
      clock,
      budget,
      fetchFn: (async (url: string, init?: RequestInit) => {
        const r = `${init?.method ?? 'GET'} ${new URL(url).pathname}`
        sent.push(r)
        if (r === 'POST /fapi/v3/listenKey') posts++
        return fetch(url, init)
      }) as typeof fetch,
      userStreams: {
        url: fake.wsUrl,
        pingMs: 50,
        silentMs: 400,
        keepAliveMs: 100,
        minDelayMs: 20,
        maxDelayMs: 100,
      },
    })
    cred = (await bindAsterWallet(fake.url, exchange, { clock })).cred
    other = (await bindAsterWallet(fake.url, exchange, { clock })).cred
  })
  afterAll(async () => {
    await adapter?.closeUserStreams()
    await fake?.close()
  })

  const fill = (side: 'long' | 'short', size: string, c = cred) => {
    const mark = Number(exchange.quote('ETHUSDT').mark)
    exchange.place(c.owner, {
      market: 'ETHUSDT',
      side,
      size,
      price: String(Math.round(side === 'long' ? mark * 1.05 : mark * 0.95)),
      timeInForce: 'ioc',
      reduceOnly: false,
      clientOrderId: `0x${crypto.randomUUID().replaceAll('-', '')}`,
    })
  }
  const size = async (c = cred) =>
    (await adapter.positions(c)).find((p) => p.market === 'ETHUSDT')?.size

  /** Streams `c` until its reads are served from the stream. */
  async function streaming(c: VenueCredential) {
    await vi.waitFor(
      async () => {
        await adapter.positions(c)
        expect(adapter.accountStreamed?.(c.owner)).toBe(true)
      },
      { timeout: 10_000, interval: 20 },
    )
    // a base read before the connection opened is read again once
    await adapter.positions(c)
  }

  test('behavior: after a fill one REST read refreshes the liquidation price, then none until the next change or 120 s', async () => {
    adapter.streamAccounts?.(streamed(cred, other))
    expect(adapter.accountStreamed?.(cred.owner)).toBe(false)
    await streaming(cred)
    expect(keyCalls('POST').length).toBeGreaterThanOrEqual(1)

    sent.length = 0
    for (let i = 0; i < 5; i++) expect(await size()).toBeUndefined()
    expect(reads()).toEqual([])

    fill('long', '0.5')
    await vi.waitFor(async () => expect(await size()).toBe('0.5'), {
      interval: 10,
    })
    expect(reads()).toHaveLength(1)
    const pos = (await adapter.positions(cred)).find(
      (p) => p.market === 'ETHUSDT',
    )
    expect(pos?.liquidationPrice).toBe(
      exchange.positions(cred.owner)[0]?.liquidationPrice ?? null,
    )
    for (let i = 0; i < 5; i++) await adapter.positions(cred)
    expect(reads()).toHaveLength(1)

    // no event, but 120 s passed: the cross liquidation price is read again
    skew += 121_000
    const before = reads().length
    await vi.waitFor(
      async () => {
        await adapter.positions(cred)
        expect(reads().length).toBeGreaterThan(before)
      },
      { timeout: 10_000, interval: 20 },
    )
    // the jump may make the stream reconnect (a new key): once it is live
    // again, its view serves and no read goes out
    await streaming(cred)
    const settled = reads().length
    for (let i = 0; i < 5; i++) await adapter.positions(cred)
    expect(reads()).toHaveLength(settled)
  })

  test('behavior: a budget refusal serves the stream view: the new size, the last liquidation price', async () => {
    await streaming(cred)
    const before = (await adapter.positions(cred)).find(
      (p) => p.market === 'ETHUSDT',
    )
    refuse = true
    try {
      fill('long', '0.25')
      await vi.waitFor(async () => expect(await size()).toBe('0.75'), {
        interval: 10,
      })
      const view = (await adapter.positions(cred)).find(
        (p) => p.market === 'ETHUSDT',
      )
      expect(view).toMatchObject({
        size: '0.75',
        liquidationPrice: before?.liquidationPrice ?? null,
      })
      expect(view?.entryPrice).toBe(
        exchange.positions(cred.owner)[0]?.entryPrice,
      )
    } finally {
      refuse = false
    }
    // the budget is back: one read takes the new liquidation price
    sent.length = 0
    await adapter.positions(cred)
    await adapter.positions(cred)
    expect(reads()).toHaveLength(1)
  })

  test('behavior: a dropped socket stops the streaming until the stream reconnects', async () => {
    await streaming(cred)
    const postsBefore = posts
    // the reconnect waits (its POST needs the credential) until released
    let release = () => {}
    held = new Promise((r) => {
      release = r
    })
    fake.dropStreams()
    await vi.waitFor(() =>
      expect(adapter.accountStreamed?.(cred.owner)).toBe(false),
    )
    // meanwhile every read is REST
    sent.length = 0
    await adapter.positions(cred)
    await adapter.positions(cred)
    expect(reads()).toHaveLength(2)
    held = undefined
    release()
    // back: a POST (the same key, extended), a connection, streamed again
    await vi.waitFor(
      () => expect(adapter.accountStreamed?.(cred.owner)).toBe(true),
      { timeout: 10_000 },
    )
    expect(posts).toBeGreaterThan(postsBefore)
    // the new connection may have missed events: one read, then none
    sent.length = 0
    await adapter.positions(cred)
    await adapter.positions(cred)
    await adapter.positions(cred)
    expect(reads()).toHaveLength(1)
  })

  test('behavior: a failed keep-alive stops the streaming until a new key is live', async () => {
    await streaming(cred)
    // the venue's REST is down: the keep-alive (PUT) fails, while the
    // open connection still answers pings
    const puts = keyCalls('PUT').length
    exchange.setFaults({ outage: true })
    try {
      // (a loaded machine may notice the silence before the PUT fails,
      // and run the 100 ms keep-alive seconds late: a CI run on two busy
      // cores missed a 3 s wait once)
      await vi.waitFor(
        () => {
          expect(adapter.accountStreamed?.(cred.owner)).toBe(false)
          expect(keyCalls('PUT').length).toBeGreaterThan(puts)
        },
        { timeout: 10_000 },
      )
    } finally {
      exchange.setFaults({})
    }
    await vi.waitFor(
      () => expect(adapter.accountStreamed?.(cred.owner)).toBe(true),
      { timeout: 10_000 },
    )
  })

  test('behavior: an account no longer named loses its stream; its key is left to lapse (another process may use it)', async () => {
    await streaming(other)
    expect(
      fake.userStreamClients().filter((c) => c.user === other.owner),
    ).toHaveLength(1)
    sent.length = 0
    adapter.streamAccounts?.(streamed(cred))
    expect(adapter.accountStreamed?.(other.owner)).toBe(false)
    await vi.waitFor(() => {
      expect(
        fake.userStreamClients().filter((c) => c.user === other.owner),
      ).toEqual([])
    })
    expect(keyCalls('DELETE')).toEqual([])
    // the one still named streams on
    expect(adapter.accountStreamed?.(cred.owner)).toBe(true)
    // its reads are REST, every time
    sent.length = 0
    fill('long', '0.1', other)
    await adapter.positions(other)
    await adapter.positions(other)
    expect(reads()).toHaveLength(2)
  })
})
