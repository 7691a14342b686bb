import { randomBytes } from 'node:crypto'
import {
  roundPrice,
  UncertainSubmissionError,
  type VenueOrderRequest,
  VenueRejectedError,
  VenueUnavailableError,
} from '@dn/core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  type LighterTestBed,
  openLighterTestBed,
} from '../../sim/testing/lighterTestBed.js'
import { createLighterAdapter } from './createLighterAdapter.js'
import { createLighterNonceManager } from './createLighterNonceManager.js'
import { LighterRejectedError } from './lighterRejectedError.js'

const cloid = () => `0x${randomBytes(16).toString('hex')}`

/**
 * The Lighter adapter against the signature-checking protocol fake, after
 * a real binding: every error class the venue produces, and nonces shared
 * between processes.
 */
describe('createLighterAdapter against the protocol fake', () => {
  let bed: LighterTestBed
  const calls: string[] = []
  let tamper = false
  const fetchFn = (async (url: string, init?: RequestInit) => {
    calls.push(new URL(url).pathname.replace('/api/v1/', ''))
    if (tamper && init?.body) {
      const form = new URLSearchParams(String(init.body))
      const info = JSON.parse(form.get('tx_info') ?? '{}')
      const sig = Buffer.from(info.Sig, 'base64')
      sig[3] = (sig[3] ?? 0) ^ 1
      info.Sig = sig.toString('base64')
      form.set('tx_info', JSON.stringify(info))
      return fetch(url, { ...init, body: form.toString() })
    }
    return fetch(url, init)
  }) as typeof fetch
  let adapter: ReturnType<typeof createLighterAdapter>

  beforeAll(async () => {
    bed = await openLighterTestBed('lighter-mainnet', 41)
    adapter = createLighterAdapter({
      venue: 'lighter-mainnet',
      baseUrl: bed.fake.url,
      fetchFn,
      tier: 'builder',
    })
  })
  afterAll(() => bed?.fake.close())

  const keyNonce = () =>
    bed.fake.state.nonces.get(`${bed.accountIndex}:5`) ?? -1
  const placed = (id: string) =>
    bed.exchange
      .stats()
      .byClientOrderId.get(bed.fake.engineOrderId(bed.accountIndex, id)) ?? 0

  async function order(
    side: 'long' | 'short',
    away: number,
    over: Partial<VenueOrderRequest> = {},
  ): Promise<VenueOrderRequest> {
    const rules = await adapter.rules('ETH')
    if (!rules) throw new Error('ETH not listed')
    const mark = Number((await adapter.quote('ETH')).mark)
    return {
      market: 'ETH',
      side,
      size: '0.01',
      price: roundPrice(
        rules,
        mark * away,
        side === 'long' ? 'up' : 'down',
      ).toFixed(),
      timeInForce: 'ioc',
      reduceOnly: false,
      clientOrderId: cloid(),
      ...over,
    }
  }

  test('rules: powers of ten from the decimals, minimums from the market', async () => {
    expect(await adapter.rules('ETH')).toEqual({
      venue: 'lighter-mainnet',
      symbol: 'ETH',
      tickSize: '0.01',
      maxSigFigs: null,
      sizeStep: '0.0001',
      minNotionalUsd: '10',
      minBase: '0.005',
      maxLeverage: 50,
    })
    expect(await adapter.rules('DOGE')).toBeUndefined()
  })

  test('quote: mark (also as bid and ask) and the hourly funding rate', async () => {
    const q = await adapter.quote('BTC')
    const engine = bed.exchange.quote('BTC')
    expect(q.venue).toBe('lighter-mainnet')
    // a book would cost a 300-weight request per market: the mark stands in
    expect(q.bid).toBe(q.mark)
    expect(q.ask).toBe(q.mark)
    expect(q.at).toBeGreaterThan(0)
    expect(q.nextFundingAt).toBeGreaterThan(q.at ?? 0)
    expect(Math.abs(Number(q.mark) - Number(engine.mark))).toBeLessThan(
      Number(engine.mark) * 0.01,
    )
    expect(q.fundingRateHourly).toBe(engine.fundingRateHourly)
    // on the wire, `funding-rates` states the rate for eight hours
    const raw = (await (
      await fetch(`${bed.fake.url}/api/v1/funding-rates`)
    ).json()) as { funding_rates: { symbol: string; rate: number }[] }
    const btc = raw.funding_rates.find((r) => r.symbol === 'BTC')
    expect(btc?.rate).toBe(Number(engine.fundingRateHourly) * 8)
  })

  test('place: an IOC fills; the position shows; order() finds it', async () => {
    const req = await order('long', 1.01)
    const got = await adapter.place(bed.cred, req)
    expect(got).toMatchObject({ state: 'filled', filledBase: '0.01' })
    expect(Number(got.venueOrderId)).toBeGreaterThanOrEqual(2 ** 48)
    expect(Number(got.averagePrice)).toBeGreaterThan(0)
    expect(
      await adapter.order(bed.cred, 'ETH', req.clientOrderId),
    ).toMatchObject({ state: 'filled', venueStatus: 'filled' })
    const eth = (await adapter.positions(bed.cred)).find(
      (p) => p.market === 'ETH',
    )
    expect(Number(eth?.size)).toBeGreaterThan(0)
    expect(eth?.marginMode).toBe('cross')
    expect(Number(eth?.leverage)).toBeGreaterThan(0)
  })

  test("balances: the account read's own totals, no request of their own", async () => {
    await adapter.positions(bed.cred)
    const sent = calls.length
    const b = await adapter.balances?.(bed.cred, { maxAgeMs: 60_000 })
    expect(calls.length).toBe(sent)
    expect(Number(b?.equityUsd)).toBeGreaterThan(0)
    expect(Number(b?.availableUsd)).toBeLessThanOrEqual(Number(b?.equityUsd))
    // the IOC test left a cross long: its initial margin
    expect(Number(b?.marginUsedUsd)).toBeGreaterThan(0)
    // asked younger than the last read: the account read
    await adapter.balances?.(bed.cred)
    expect(calls.slice(sent)).toEqual(['account'])
  })

  test('nonce: a nonce used elsewhere is refused, re-read and the order resent once', async () => {
    await adapter.place(bed.cred, await order('long', 1.01))
    const before = keyNonce()
    // another process sent three txs with this key meanwhile
    bed.fake.state.nonces.set(`${bed.accountIndex}:5`, before + 3)
    calls.length = 0
    const req = await order('long', 1.01)
    expect((await adapter.place(bed.cred, req)).state).toBe('filled')
    expect(calls.filter((c) => c === 'sendTx')).toHaveLength(2)
    expect(calls.filter((c) => c === 'nextNonce')).toHaveLength(1)
    expect(keyNonce()).toBe(before + 4)
    expect(placed(req.clientOrderId)).toBe(1)
  })

  test('nonce: a tx refused at the API does not consume its nonce', async () => {
    await adapter.place(bed.cred, await order('long', 1.01))
    const before = keyNonce()
    const tooSmall = await order('long', 1.01, { size: '0.0001' })
    const err = await adapter.place(bed.cred, tooSmall).catch((e) => e)
    expect(err).toBeInstanceOf(LighterRejectedError)
    expect(err.lighterCode).toBe(21706)
    expect(keyNonce()).toBe(before)
    calls.length = 0
    await adapter.place(bed.cred, await order('long', 1.01))
    expect(calls).not.toContain('nextNonce')
    expect(keyNonce()).toBe(before + 1)
  })

  test('sequencer: a crossing post-only is accepted (nonce consumed) and refused', async () => {
    const before = keyNonce()
    const req = await order('long', 1.02, { timeInForce: 'post_only' })
    const err = await adapter.place(bed.cred, req).catch((e) => e)
    expect(err).toBeInstanceOf(VenueRejectedError)
    expect(err.reason).toBe('canceled-post-only')
    expect(keyNonce()).toBe(before + 1)
    expect(placed(req.clientOrderId)).toBe(0)
    expect(
      (await adapter.place(bed.cred, await order('long', 1.01))).state,
    ).toBe('filled')
  })

  test('signature: a tx signed for another chain is refused', async () => {
    const testnet = createLighterAdapter({
      venue: 'lighter-mainnet',
      baseUrl: bed.fake.url,
      testnet: true,
    })
    const req = await order('long', 1.01)
    const err = await testnet.place(bed.cred, req).catch((e) => e)
    expect(err).toBeInstanceOf(LighterRejectedError)
    expect(err.reason).toMatch(/invalid signature/)
    expect(placed(req.clientOrderId)).toBe(0)
  })

  test('signature: a tampered signature is refused', async () => {
    const req = await order('long', 1.01)
    tamper = true
    try {
      const err = await adapter.place(bed.cred, req).catch((e) => e)
      expect(err).toBeInstanceOf(LighterRejectedError)
      expect(err.reason).toMatch(/invalid signature/)
    } finally {
      tamper = false
    }
    expect(placed(req.clientOrderId)).toBe(0)
    expect((await adapter.place(bed.cred, req)).state).toBe('filled')
  })

  test('uncertain: a lost answer, then order() finds it; a resend returns it, never a second order', async () => {
    const req = await order('short', 0.99)
    bed.exchange.setFaults({ timeoutAfterAcceptRate: 1 })
    try {
      await expect(adapter.place(bed.cred, req)).rejects.toBeInstanceOf(
        UncertainSubmissionError,
      )
    } finally {
      bed.exchange.setFaults({})
    }
    expect(
      (await adapter.order(bed.cred, 'ETH', req.clientOrderId))?.state,
    ).toBe('filled')
    expect(placed(req.clientOrderId)).toBe(1)
    // the worker may resend the same client order id: code 21728
    expect((await adapter.place(bed.cred, req)).state).toBe('filled')
    expect(placed(req.clientOrderId)).toBe(1)
  })

  test('uncertain: an accepted tx whose lookups fail is uncertain, never "not sent"; 21728 with no visible order too', async () => {
    let lookups = 'fail'
    const flaky = createLighterAdapter({
      venue: 'lighter-mainnet',
      baseUrl: bed.fake.url,
      tier: 'builder',
      confirmAttempts: 2,
      confirmDelayMs: 1,
      fetchFn: (async (url: string, init?: RequestInit) => {
        if (url.includes('/accountOrders') && lookups === 'fail') {
          return new Response('{}', { status: 502 })
        }
        if (url.includes('/accountOrders') && lookups === 'empty') {
          return Response.json({ code: 200, orders: [] })
        }
        return fetch(url, init)
      }) as typeof fetch,
    })
    const req = await order('long', 1.01)
    const err = await flaky.place(bed.cred, req).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(UncertainSubmissionError)
    expect(placed(req.clientOrderId)).toBe(1)
    // sent again: the venue says it exists (21728) but shows nothing yet
    lookups = 'empty'
    const again = await flaky.place(bed.cred, req).catch((e: unknown) => e)
    expect(again).toBeInstanceOf(UncertainSubmissionError)
    expect(placed(req.clientOrderId)).toBe(1)
  })

  test('cancel: a resting order by client order id; final and unknown ones resolve', async () => {
    const req = await order('long', 0.9, { timeInForce: 'gtc' })
    const got = await adapter.place(bed.cred, req)
    expect(got.state).toBe('open')
    await adapter.cancel(bed.cred, 'ETH', req.clientOrderId)
    expect(
      (await adapter.order(bed.cred, 'ETH', req.clientOrderId))?.state,
    ).toBe('cancelled')
    await adapter.cancel(bed.cred, 'ETH', req.clientOrderId)
    await adapter.cancel(bed.cred, 'ETH', cloid())
    expect(await adapter.order(bed.cred, 'ETH', cloid())).toBeNull()
    expect(await adapter.order(bed.cred, 'BTC', req.clientOrderId)).toBeNull()
  })

  test('outage: reads are unavailable, a create is uncertain', async () => {
    const req = await order('long', 1.01)
    bed.exchange.setFaults({ outage: true })
    try {
      await expect(adapter.positions(bed.cred)).rejects.toBeInstanceOf(
        VenueUnavailableError,
      )
      await expect(adapter.place(bed.cred, req)).rejects.toBeInstanceOf(
        UncertainSubmissionError,
      )
    } finally {
      bed.exchange.setFaults({})
    }
    expect(placed(req.clientOrderId)).toBe(0)
    expect((await adapter.place(bed.cred, req)).state).toBe('filled')
  })

  test('integrator: orders may carry attribute 1 (hashed, so still verified)', async () => {
    const withIntegrator = createLighterAdapter({
      venue: 'lighter-mainnet',
      baseUrl: bed.fake.url,
      integratorAccountIndex: 735705,
      fetchFn: (async (url: string, init?: RequestInit) => {
        if (init?.body) {
          const info = new URLSearchParams(String(init.body)).get('tx_info')
          expect(JSON.parse(info ?? '{}').L2TxAttributes).toEqual({
            '1': 735705,
          })
        }
        return fetch(url, init)
      }) as typeof fetch,
    })
    const req = await order('long', 1.01)
    expect((await withIntegrator.place(bed.cred, req)).state).toBe('filled')
  })

  test('credential: a malformed one is refused before anything is sent', async () => {
    const req = await order('long', 1.01)
    await expect(
      adapter.place({ ...bed.cred, secret: '0x12' }, req),
    ).rejects.toBeInstanceOf(VenueRejectedError)
    await expect(
      adapter.place({ ...bed.cred, credentialRef: 'x' }, req),
    ).rejects.toBeInstanceOf(VenueRejectedError)
  })

  test('processes: two adapters with their own nonces share one key; every order lands once', async () => {
    let sends = 0
    const counting = ((url: string, init?: RequestInit) => {
      if (url.endsWith('/sendTx')) sends++
      return fetch(url, init)
    }) as typeof fetch
    const [a, b] = [1, 2].map(() =>
      createLighterAdapter({
        venue: 'lighter-mainnet',
        baseUrl: bed.fake.url,
        fetchFn: counting,
        nonces: createLighterNonceManager(),
        tier: 'builder',
      }),
    ) as [typeof adapter, typeof adapter]
    const before = keyNonce()
    const reqs = await Promise.all(
      Array.from({ length: 8 }, () => order('long', 1.01)),
    )
    const results = await Promise.allSettled(
      reqs.map((r, i) => (i % 2 ? a : b).place(bed.cred, r)),
    )
    // a nonce race can outlast the bounded resends; the worker then
    // resends with the same client order id, as it would in production
    for (const [i, r] of results.entries()) {
      const req = reqs[i] as VenueOrderRequest
      if (r.status === 'rejected') {
        expect(r.reason).toBeInstanceOf(LighterRejectedError)
        expect((await a.place(bed.cred, req)).state).toBe('filled')
      } else expect(r.value.state).toBe('filled')
    }
    for (const r of reqs) expect(placed(r.clientOrderId)).toBe(1)
    expect(keyNonce()).toBe(before + 8)
    // the two processes did collide: some sends were refused and resent
    expect(sends).toBeGreaterThan(8)
  })
})

describe('createLighterAdapter funding over simulated hours', () => {
  let now = Date.now()
  const clock = { now: () => now }
  let bed: LighterTestBed
  beforeAll(async () => {
    bed = await openLighterTestBed('lighter', 43, clock)
  })
  afterAll(() => bed.fake.close())

  test('funding: payments on the position since a time, signed sizes', async () => {
    const adapter = createLighterAdapter({
      venue: 'lighter',
      baseUrl: bed.fake.url,
      clock,
    })
    const since = new Date(now).toISOString()
    const mark = Number((await adapter.quote('ETH')).mark)
    await adapter.place(bed.cred, {
      market: 'ETH',
      side: 'short',
      size: '0.1',
      price: (Math.floor(mark * 0.98 * 100) / 100).toFixed(2),
      timeInForce: 'ioc',
      reduceOnly: false,
      clientOrderId: cloid(),
    })
    now += 2 * 3_600_000
    const rows = await adapter.funding(bed.cred, 'ETH', since)
    const engine = bed.exchange.funding(bed.owner, 'ETH', since)
    expect(rows.length).toBeGreaterThanOrEqual(1)
    expect(rows.length).toBe(engine.length)
    expect(rows[0]).toMatchObject({
      market: 'ETH',
      amountUsd: engine[0]?.amountUsd,
      rate: engine[0]?.rate,
    })
    expect(Number(rows[0]?.positionSize)).toBeLessThan(0)
    expect(await adapter.funding(bed.cred, 'BTC', since)).toEqual([])
  })
})
