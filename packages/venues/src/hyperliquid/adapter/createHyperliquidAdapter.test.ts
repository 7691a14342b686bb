import {
  UncertainSubmissionError,
  type VenueCredential,
  type VenueOrderRequest,
  VenueRejectedError,
  VenueUnavailableError,
} from '@dn/core'
import { HttpResponse, http } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { recoverL1Signer } from '../signing/l1Signature.js'
import { createHyperliquidAdapter } from './createHyperliquidAdapter.js'

const BASE = 'https://api.hyperliquid-testnet.xyz'
const AGENT_KEY =
  '0x0123456789012345678901234567890123456789012345678901234567890123'
const AGENT = '0x14791697260E4c9A71f18484C9f997B308e59325'
const OWNER = '0x5e9ee1089755c3435139848e47e6635505d5a13a'
const CLOID = '0x0000000000000000000000000000abcd'

const cred: VenueCredential = {
  owner: OWNER,
  venue: 'hl',
  accountIndex: null,
  credentialRef: AGENT,
  secret: AGENT_KEY,
}

const META = [
  {
    universe: [
      { name: 'BTC', szDecimals: 5, maxLeverage: 40, marginTableId: 56 },
      { name: 'ETH', szDecimals: 4, maxLeverage: 25, marginTableId: 55 },
      {
        name: 'OLD',
        szDecimals: 0,
        maxLeverage: 3,
        marginTableId: 3,
        isDelisted: true,
      },
    ],
    marginTables: [],
    collateralToken: 0,
  },
  [
    {
      funding: '0.0000125',
      openInterest: '100.0',
      prevDayPx: '60000.0',
      dayNtlVlm: '1.0',
      premium: '0.0001',
      oraclePx: '61000.0',
      markPx: '61001.0',
      midPx: '61000.5',
      impactPxs: ['61000.0', '61002.0'],
      dayBaseVlm: '1.0',
    },
    {
      funding: '-0.00001',
      openInterest: '10.0',
      prevDayPx: '3000.0',
      dayNtlVlm: '1.0',
      premium: '0.0',
      oraclePx: '3000.1',
      markPx: '3000.2',
      midPx: null,
      impactPxs: null,
      dayBaseVlm: '1.0',
    },
    {
      funding: '0.0',
      openInterest: '0.0',
      prevDayPx: '1.0',
      dayNtlVlm: '0.0',
      premium: null,
      oraclePx: '1.0',
      markPx: '1.0',
      midPx: null,
      impactPxs: null,
      dayBaseVlm: '0.0',
    },
  ],
]

type Body = Record<string, unknown>
let infoCalls: Body[] = []
let exchangeCalls: Body[] = []
let infoAnswer: (body: Body) => unknown = () => ({})
let exchangeAnswer: (body: Body) => Response | unknown = () => ({})

const server = setupServer(
  http.post(`${BASE}/info`, async ({ request }) => {
    const body = (await request.json()) as Body
    infoCalls.push(body)
    if (body.type === 'metaAndAssetCtxs') return HttpResponse.json(META)
    if (body.type === 'perpDexs') return HttpResponse.json([null])
    return HttpResponse.json(infoAnswer(body) as never)
  }),
  http.post(`${BASE}/exchange`, async ({ request }) => {
    const body = (await request.json()) as Body
    exchangeCalls.push(body)
    const a = exchangeAnswer(body)
    return a instanceof Response ? a : HttpResponse.json(a as never)
  }),
)

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => {
  server.resetHandlers()
  infoCalls = []
  exchangeCalls = []
})
afterAll(() => server.close())

let now = 1_700_000_000_000
const clock = { now: () => now }
const adapter = () =>
  createHyperliquidAdapter({ baseUrl: BASE, isMainnet: false, clock })

const order = (over: Partial<VenueOrderRequest> = {}): VenueOrderRequest => ({
  market: 'ETH',
  side: 'long',
  size: '0.0147',
  price: '1670.1',
  timeInForce: 'ioc',
  reduceOnly: false,
  clientOrderId: CLOID,
  ...over,
})

const orderOk = (status: unknown) => ({
  status: 'ok',
  response: { type: 'order', data: { statuses: [status] } },
})

describe('rules and quote', () => {
  test('rules map szDecimals to step and tick; unknown and delisted → undefined', async () => {
    const a = adapter()
    expect(await a.rules('ETH')).toEqual({
      venue: 'hl',
      symbol: 'ETH',
      tickSize: '0.01',
      maxSigFigs: 5,
      sizeStep: '0.0001',
      minNotionalUsd: '10',
      minBase: '0.0001',
      maxLeverage: 25,
    })
    expect((await a.rules('BTC'))?.tickSize).toBe('0.1')
    expect(await a.rules('DOGE')).toBeUndefined()
    expect(await a.rules('OLD')).toBeUndefined()
    // universe cached: one metaAndAssetCtxs call for all of the above
    expect(infoCalls).toHaveLength(1)
    now += 61_000
    await a.rules('ETH')
    expect(infoCalls).toHaveLength(2)
  })

  test('quote: mark, impact prices as bid/ask, hourly funding', async () => {
    const a = adapter()
    const btc = await a.quote('BTC')
    expect(btc).toEqual({
      venue: 'hl',
      symbol: 'BTC',
      mark: '61001',
      bid: '61000',
      ask: '61002',
      fundingRateHourly: '0.0000125',
      at: btc.at,
      // Hyperliquid settles funding every hour
      nextFundingAt: Math.floor((btc.at ?? 0) / 3_600_000 + 1) * 3_600_000,
    })
    const eth = await a.quote('ETH')
    expect([eth.bid, eth.ask, eth.mark]).toEqual(['3000.2', '3000.2', '3000.2'])
    expect(eth.fundingRateHourly).toBe('-0.00001')
  })

  test('accountReadsPerMinute: routine weight of the per-IP budget over clearinghouseState weight 2', () => {
    // 1,200 a minute at share 0.5, routine ceiling 0.75: 450 weight,
    // held 62 s (the window and the delivery margin): 217.7 reads
    expect(adapter().accountReadsPerMinute?.()).toBeCloseTo((225 * 60) / 62)
  })

  test('a malformed info answer → VenueUnavailableError', async () => {
    server.use(
      http.post(`${BASE}/info`, () => HttpResponse.json({ nope: true })),
    )
    await expect(adapter().rules('BTC')).rejects.toBeInstanceOf(
      VenueUnavailableError,
    )
  })
})

describe('place', () => {
  test('filled: signed order action recovers to the agent', async () => {
    exchangeAnswer = () =>
      orderOk({ filled: { totalSz: '0.0147', avgPx: '1670.0', oid: 77 } })
    const a = adapter()
    const r = await a.place(cred, order())
    expect(r).toEqual({
      clientOrderId: CLOID,
      venueOrderId: '77',
      state: 'filled',
      size: '0.0147',
      filledBase: '0.0147',
      averagePrice: '1670',
      venueStatus: 'filled',
      reason: null,
    })
    const sent = exchangeCalls[0] as {
      action: object
      nonce: number
      signature: { r: `0x${string}`; s: `0x${string}`; v: 27 | 28 }
      vaultAddress: null
      expiresAfter: number
    }
    // a lost order action cannot land more than a minute later
    expect(sent.expiresAfter).toBe(now + 60_000)
    expect(sent.action).toEqual({
      type: 'order',
      orders: [
        {
          a: 1,
          b: true,
          p: '1670.1',
          s: '0.0147',
          r: false,
          t: { limit: { tif: 'Ioc' } },
          c: CLOID,
        },
      ],
      grouping: 'na',
    })
    expect(sent.nonce).toBe(now)
    const signer = await recoverL1Signer({
      action: sent.action,
      vaultAddress: null,
      nonce: sent.nonce,
      expiresAfter: sent.expiresAfter,
      isMainnet: false,
      signature: sent.signature,
    })
    expect(signer).toBe(AGENT)
  })

  test('builder fee: 15 tenths of a bp, doubled on a Lighter-paired leg', async () => {
    exchangeAnswer = () => orderOk({ resting: { oid: 1 } })
    const builder = `0x${'Ab'.repeat(20)}`
    const a = createHyperliquidAdapter({
      baseUrl: BASE,
      isMainnet: false,
      clock,
      builder: { address: builder, feeTenthsBp: 15 },
    })
    await a.place(cred, order({ timeInForce: 'gtc' }))
    await a.place(cred, order({ timeInForce: 'gtc', pairedWithLighter: true }))
    const sent = exchangeCalls as { action: { builder?: unknown } }[]
    expect(sent.map((c) => c.action.builder)).toEqual([
      { b: builder.toLowerCase(), f: 15 },
      { b: builder.toLowerCase(), f: 30 },
    ])
    // the rate the worker books builder fees at: f tenths of a bp
    expect(a.builderFeeRate?.(false)).toBe('0.00015')
    expect(a.builderFeeRate?.(true)).toBe('0.0003')
    expect(adapter().builderFeeRate?.(true)).toBe('0')
    // without a builder, no builder field is signed
    await adapter().place(cred, order({ timeInForce: 'gtc' }))
    expect(sent[2]?.action).not.toHaveProperty('builder')
  })

  test('nonces strictly increase within one adapter', async () => {
    exchangeAnswer = () => orderOk({ resting: { oid: 1 } })
    const a = adapter()
    await a.place(cred, order({ timeInForce: 'gtc' }))
    await a.place(cred, order({ timeInForce: 'gtc' }))
    expect(exchangeCalls[1]?.nonce).toBe(
      (exchangeCalls[0]?.nonce as number) + 1,
    )
  })

  test('IOC partial fill → cancelled with the filled part', async () => {
    exchangeAnswer = () =>
      orderOk({ filled: { totalSz: '0.01', avgPx: '1670.1', oid: 78 } })
    const r = await adapter().place(cred, order({ side: 'short' }))
    expect(r.state).toBe('cancelled')
    expect(r.filledBase).toBe('0.01')
    expect(
      ((exchangeCalls[0] as Body).action as { orders: { b: boolean }[] })
        .orders[0]?.b,
    ).toBe(false)
  })

  test('resting → open; post_only sent as Alo, reduceOnly kept', async () => {
    exchangeAnswer = () => orderOk({ resting: { oid: 79, cloid: CLOID } })
    const r = await adapter().place(
      cred,
      order({ timeInForce: 'post_only', reduceOnly: true }),
    )
    expect(r).toMatchObject({
      state: 'open',
      venueOrderId: '79',
      filledBase: '0',
      venueStatus: 'resting',
    })
    const wire = ((exchangeCalls[0] as Body).action as { orders: Body[] })
      .orders[0]
    expect(wire).toMatchObject({ r: true, t: { limit: { tif: 'Alo' } } })
  })

  test('per-order error → VenueRejectedError with the reason', async () => {
    exchangeAnswer = () =>
      orderOk({ error: 'Order must have minimum value of $10.' })
    const err = await adapter()
      .place(cred, order())
      .catch((e: unknown) => e)
    expect(err).toBeInstanceOf(VenueRejectedError)
    expect((err as VenueRejectedError).reason).toBe(
      'Order must have minimum value of $10.',
    )
  })

  test('top-level {status:"err"} → VenueRejectedError', async () => {
    exchangeAnswer = () => ({
      status: 'err',
      response: 'User or API Wallet 0x... does not exist.',
    })
    await expect(adapter().place(cred, order())).rejects.toBeInstanceOf(
      VenueRejectedError,
    )
  })

  test('off-tick price is refused locally, nothing sent', async () => {
    await expect(
      adapter().place(cred, order({ price: '1670.123' })),
    ).rejects.toBeInstanceOf(VenueRejectedError)
    expect(exchangeCalls).toHaveLength(0)
  })

  test('502 after sending → UncertainSubmissionError', async () => {
    exchangeAnswer = () => new HttpResponse('bad gateway', { status: 502 })
    await expect(adapter().place(cred, order())).rejects.toBeInstanceOf(
      UncertainSubmissionError,
    )
  })

  test('429 → VenueUnavailableError', async () => {
    exchangeAnswer = () => new HttpResponse('', { status: 429 })
    await expect(adapter().place(cred, order())).rejects.toBeInstanceOf(
      VenueUnavailableError,
    )
  })

  test('unexpected answer shape → UncertainSubmissionError', async () => {
    exchangeAnswer = () => ({ status: 'ok', response: { type: 'default' } })
    await expect(adapter().place(cred, order())).rejects.toBeInstanceOf(
      UncertainSubmissionError,
    )
  })

  test('connection refused → VenueUnavailableError', async () => {
    const fetchFn: typeof fetch = async (input, init) => {
      const body = JSON.parse(String(init?.body)) as Body
      if (String(input).endsWith('/info') && body.type === 'metaAndAssetCtxs') {
        return HttpResponse.json(META)
      }
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error('connect ECONNREFUSED'), {
          code: 'ECONNREFUSED',
        }),
      })
    }
    const a = createHyperliquidAdapter({
      baseUrl: BASE,
      isMainnet: false,
      clock,
      fetchFn,
    })
    await expect(a.place(cred, order())).rejects.toBeInstanceOf(
      VenueUnavailableError,
    )
  })

  test('reset after sending → UncertainSubmissionError; timeout too', async () => {
    const fetchFn =
      (err: Error): typeof fetch =>
      async (_input, init) => {
        const body = JSON.parse(String(init?.body)) as Body
        if (body.type === 'metaAndAssetCtxs') return HttpResponse.json(META)
        if (body.type === 'perpDexs') return HttpResponse.json([null])
        throw err
      }
    const reset = new TypeError('fetch failed', {
      cause: Object.assign(new Error('socket'), { code: 'ECONNRESET' }),
    })
    const timeout = new DOMException('timed out', 'TimeoutError')
    for (const e of [reset, timeout]) {
      const a = createHyperliquidAdapter({
        baseUrl: BASE,
        isMainnet: false,
        clock,
        fetchFn: fetchFn(e),
      })
      await expect(a.place(cred, order())).rejects.toBeInstanceOf(
        UncertainSubmissionError,
      )
    }
  })
})

describe('order status', () => {
  const statusAnswer = (status: string, sz: string) => ({
    status: 'order',
    order: {
      order: {
        coin: 'ETH',
        side: 'B',
        limitPx: '1670.1',
        sz,
        oid: 80,
        timestamp: 1_700_000_000_000,
        origSz: '0.0147',
        triggerCondition: 'N/A',
        isTrigger: false,
        triggerPx: '0.0',
        children: [],
        isPositionTpsl: false,
        reduceOnly: false,
        orderType: 'Limit',
        tif: 'Gtc',
        cloid: CLOID,
      },
      status,
      statusTimestamp: 1_700_000_000_500,
    },
  })

  test('queries by cloid for the owner and maps the status', async () => {
    infoAnswer = () => statusAnswer('open', '0.01')
    const r = await adapter().order(cred, 'ETH', CLOID)
    expect(infoCalls[0]).toEqual({
      type: 'orderStatus',
      user: OWNER,
      oid: CLOID,
    })
    expect(r).toEqual({
      clientOrderId: CLOID,
      venueOrderId: '80',
      state: 'partially_filled',
      size: '0.0147',
      filledBase: '0.0047',
      averagePrice: null,
      venueStatus: 'open',
      reason: null,
    })
  })

  test.each([
    ['filled', '0', 'filled'],
    ['canceled', '0.0147', 'cancelled'],
    ['marginCanceled', '0.0147', 'cancelled'],
    ['minTradeNtlRejected', '0.0147', 'rejected'],
    ['open', '0.0147', 'open'],
  ])('%s → %s', async (word, sz, state) => {
    infoAnswer = () => statusAnswer(word, sz)
    const r = await adapter().order(cred, 'ETH', CLOID)
    expect(r?.state).toBe(state)
    expect(r?.venueStatus).toBe(word)
  })

  test('unknownOid → null', async () => {
    infoAnswer = () => ({ status: 'unknownOid' })
    expect(await adapter().order(cred, 'ETH', CLOID)).toBeNull()
  })
})

describe('cancel', () => {
  const cancelOk = (s: unknown) => ({
    status: 'ok',
    response: { type: 'cancel', data: { statuses: [s] } },
  })

  test('sends a signed cancelByCloid and resolves on success', async () => {
    exchangeAnswer = () => cancelOk('success')
    await adapter().cancel(cred, 'BTC', CLOID)
    const sent = exchangeCalls[0] as {
      action: object
      nonce: number
      signature: { r: `0x${string}`; s: `0x${string}`; v: 27 | 28 }
    }
    expect(sent.action).toEqual({
      type: 'cancelByCloid',
      cancels: [{ asset: 0, cloid: CLOID }],
    })
    expect(
      await recoverL1Signer({
        action: sent.action,
        vaultAddress: null,
        nonce: sent.nonce,
        isMainnet: false,
        signature: sent.signature,
      }),
    ).toBe(AGENT)
  })

  test('already canceled or filled counts as done', async () => {
    exchangeAnswer = () =>
      cancelOk({
        error: 'Order was never placed, already canceled, or filled. asset=0',
      })
    await expect(adapter().cancel(cred, 'BTC', CLOID)).resolves.toBeUndefined()
  })

  test('another error → VenueRejectedError', async () => {
    exchangeAnswer = () => cancelOk({ error: 'Something else.' })
    await expect(adapter().cancel(cred, 'BTC', CLOID)).rejects.toBeInstanceOf(
      VenueRejectedError,
    )
  })
})

describe('positions and funding', () => {
  test('clearinghouseState → signed positions', async () => {
    infoAnswer = () => ({
      marginSummary: {
        accountValue: '1000.0',
        totalNtlPos: '0.0',
        totalRawUsd: '1000.0',
        totalMarginUsed: '0.0',
      },
      crossMarginSummary: {
        accountValue: '1000.0',
        totalNtlPos: '0.0',
        totalRawUsd: '1000.0',
        totalMarginUsed: '0.0',
      },
      crossMaintenanceMarginUsed: '0.0',
      withdrawable: '900.0',
      assetPositions: [
        {
          type: 'oneWay',
          position: {
            coin: 'ETH',
            szi: '-0.5',
            leverage: { type: 'isolated', value: 5, rawUsd: '1800.0' },
            entryPx: '3001.0',
            positionValue: '1500.1',
            unrealizedPnl: '0.4',
            returnOnEquity: '0.001',
            liquidationPx: '3500.5',
            marginUsed: '300.0',
            maxLeverage: 25,
            cumFunding: { allTime: '0', sinceOpen: '0', sinceChange: '0' },
          },
        },
        {
          type: 'oneWay',
          position: {
            coin: 'BTC',
            szi: '0.001',
            leverage: { type: 'cross', value: 10 },
            entryPx: '60000.0',
            positionValue: '61.001',
            unrealizedPnl: '1.0',
            returnOnEquity: '0.1',
            liquidationPx: null,
            marginUsed: '6.1',
            maxLeverage: 40,
            cumFunding: { allTime: '0', sinceOpen: '0', sinceChange: '0' },
          },
        },
      ],
      time: 1_700_000_000_000,
    })
    const ps = await adapter().positions(cred)
    expect(infoCalls).toContainEqual({
      type: 'clearinghouseState',
      user: OWNER,
    })
    expect(ps).toEqual([
      {
        market: 'ETH',
        size: '-0.5',
        entryPrice: '3001',
        markPrice: '3000.2',
        leverage: '5',
        marginMode: 'isolated',
        liquidationPrice: '3500.5',
      },
      {
        market: 'BTC',
        size: '0.001',
        entryPrice: '60000',
        markPrice: '61001',
        leverage: '10',
        marginMode: 'cross',
        liquidationPrice: null,
      },
    ])
  })

  /** 2023-11-14T22:00Z: the settlement before `now` (22:13:20) */
  const H22 = 1_699_999_200_000
  const fundingRow = (coin: string, time: number, usdc = '0.01') => ({
    time,
    hash: '0x0000000000000000000000000000000000000000000000000000000000000000',
    delta: {
      type: 'funding',
      coin,
      usdc,
      szi: '-0.5',
      fundingRate: '0.0000125',
      nSamples: null,
    },
  })
  /** userFunding as given; a clearinghouseState with no positions */
  const answerFunding = (rows: unknown[]) => {
    infoAnswer = (body) =>
      body.type === 'userFunding' ? rows : { assetPositions: [], time: now }
  }
  const fundingReads = () => infoCalls.filter((c) => c.type === 'userFunding')

  test('userFunding filtered to the coin, each payment dated by the hour it settled', async () => {
    // the venue dates a settlement a few ms into its hour
    answerFunding([
      fundingRow('ETH', H22 + 37, '0.0187'),
      fundingRow('BTC', H22 + 37, '-0.01'),
      fundingRow('ETH', H22 + 3_600_041, '0.02'),
    ])
    const since = '2023-11-14T22:00:00.000Z'
    // no state held from before the settlement: the venue's record
    const fs = await adapter().funding(cred, 'ETH', since)
    expect(fundingReads()).toEqual([
      { type: 'userFunding', user: OWNER, startTime: Date.parse(since) },
    ])
    expect(fs).toEqual([
      {
        market: 'ETH',
        time: new Date(H22).toISOString(),
        amountUsd: '0.0187',
        rate: '0.0000125',
        positionSize: '-0.5',
      },
      {
        market: 'ETH',
        time: new Date(H22 + 3_600_000).toISOString(),
        amountUsd: '0.02',
        rate: '0.0000125',
        positionSize: '-0.5',
      },
    ])
  })

  test('behavior: one userFunding read an hour serves every market and cursor of the user', async () => {
    answerFunding([fundingRow('ETH', H22 + 37), fundingRow('BTC', H22 + 37)])
    const a = adapter()
    const since = '2023-11-14T22:00:00.000Z'
    const [eth, btc] = await Promise.all([
      a.funding(cred, 'ETH', since),
      a.funding(cred, 'BTC', since),
    ])
    expect(eth.map((f) => f.market)).toEqual(['ETH'])
    expect(btc.map((f) => f.market)).toEqual(['BTC'])
    // a second market a moment later is served by the same read
    expect((await a.funding(cred, 'ETH', since)).length).toBe(1)
    expect(fundingReads()).toHaveLength(1)
    // a cursor later in the same hour (a task booked up to a payment, or
    // created then) joins the hour's read and keeps only its own rows
    const after = new Date(H22 + 1).toISOString()
    expect(await a.funding(cred, 'ETH', after)).toEqual([])
    expect(fundingReads()).toHaveLength(1)
    // a cursor in another hour is another read, from that hour
    await a.funding(cred, 'ETH', '2023-11-14T21:20:00.000Z')
    expect(fundingReads()).toHaveLength(2)
    expect(fundingReads()[1]?.startTime).toBe(
      Date.parse('2023-11-14T21:00:00.000Z'),
    )
    // and so is the same cursor once the shared read is old
    now += 5_001
    await a.funding(cred, 'BTC', since)
    expect(fundingReads()).toHaveLength(3)
  })

  test('a 502 on a read → VenueUnavailableError', async () => {
    server.use(
      http.post(`${BASE}/info`, () => new HttpResponse('', { status: 502 })),
    )
    await expect(adapter().positions(cred)).rejects.toBeInstanceOf(
      VenueUnavailableError,
    )
  })
})
