import { createDnClient } from '@dn/client'
import { UnavailableError } from '@dn/core'
import { createSimMarketData } from '@dn/venues/sim'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { client, fails, ISO_RE } from './support/httpFixtures.js'
import {
  createOwnerWithKey,
  dialects,
  startTestService,
  type TestOwner,
  type TestService,
} from './support/testService.js'

const M = (venue?: string) =>
  venue === undefined ? '/v1/markets' : `/v1/markets?venue=${venue}`

describe.each(dialects())('GET /v1/markets over HTTP (%s)', (dialect) => {
  let svc: TestService
  let a: TestOwner // grants hl and aster only
  const S = client(() => svc)

  beforeAll(async () => {
    const sim = createSimMarketData()
    svc = await startTestService({
      dialect,
      // ETH on Hyperliquid has no quote: its row keeps rules, quote nulls
      markets: {
        ...sim,
        quote: async (venue, symbol) => {
          if (venue === 'hl' && symbol === 'ETH') {
            throw new UnavailableError('market_data_unavailable', 'no quote')
          }
          return sim.quote(venue, symbol)
        },
      },
    })
    a = await createOwnerWithKey(svc, { venues: ['hl', 'aster'] })
  })
  afterAll(() => svc?.close())

  it('200: every listed market with rules and quote, decimals as strings', async () => {
    const res = await S.get(M('hl'), a.apiKey)
    expect(res.status).toBe(200)
    expect(res.headers.get('x-ratelimit-limit')).toBeTruthy()
    expect(res.body.venue).toBe('hl')
    const bySymbol = Object.fromEntries(
      res.body.markets.map((m: { symbol: string }) => [m.symbol, m]),
    )
    expect(Object.keys(bySymbol)).toEqual(['BTC', 'ETH', 'SOL', 'xyz:TSLA'])
    const btc = bySymbol.BTC
    expect(btc).toMatchObject({
      symbol: 'BTC',
      tickSize: '0.1',
      sizeStep: '0.00001',
      minBase: '0.00001',
      minNotionalUsd: '10',
      maxLeverage: 40,
    })
    // funding moves with the simulated premium: APY is hourly × 24 × 365,
    // in percent
    expect(btc.fundingRateHourly).toMatch(/^-?[0-9]+(\.[0-9]+)?$/)
    expect(btc.fundingApy).toMatch(/^-?[0-9]+(\.[0-9]+)?$/)
    expect(Number(btc.fundingApy)).toBeCloseTo(
      Number(btc.fundingRateHourly) * 8760 * 100,
      10,
    )
    for (const f of ['mark', 'bid', 'ask']) {
      expect(btc[f], f).toMatch(/^[0-9]+(\.[0-9]+)?$/)
    }
    expect(Number(btc.bid)).toBeLessThanOrEqual(Number(btc.ask))
    expect(btc.nextFundingAt === null || ISO_RE.test(btc.nextFundingAt)).toBe(
      true,
    )
  })

  it('200: a market without a quote keeps its rules, quote fields null', async () => {
    const res = await S.get(M('hl'), a.apiKey)
    const eth = res.body.markets.find(
      (m: { symbol: string }) => m.symbol === 'ETH',
    )
    expect(eth).toEqual({
      symbol: 'ETH',
      tickSize: '0.01',
      sizeStep: '0.0001',
      minBase: '0.0001',
      minNotionalUsd: '10',
      maxLeverage: 25,
      mark: null,
      bid: null,
      ask: null,
      fundingRateHourly: null,
      fundingApy: null,
      nextFundingAt: null,
    })
  })

  it('401: missing or invalid API key', async () => {
    await fails(S.get(M('hl')), '401 unauthorized')
    await fails(S.get(M('hl'), `${a.apiKey}x`), '401 unauthorized')
  })

  it('403: a venue the key does not grant', async () => {
    const res = await fails(
      S.get(M('lighter'), a.apiKey),
      '403 venue_not_granted',
    )
    expect(res.body.venues).toEqual(['lighter'])
  })

  it('400: missing, unknown, repeated or extra query parameters', async () => {
    await fails(S.get(M(), a.apiKey), '400 invalid_query')
    await fails(S.get(M('binance'), a.apiKey), '400 invalid_query')
    await fails(S.get(`${M('hl')}&venue=hl`, a.apiKey), '400 invalid_query')
    await fails(S.get(`${M('hl')}&limit=5`, a.apiKey), '400 invalid_query')
  })

  it('the client and /openapi.json know the route from its declaration', async () => {
    const dn = createDnClient({ baseUrl: svc.url, apiKey: a.apiKey })
    const list = await dn.markets({ venue: 'aster' })
    expect(list.markets.map((m) => m.symbol)).toEqual([
      'BTCUSDT',
      'ETHUSDT',
      'SOLUSDT',
    ])
    const doc = (await S.get('/openapi.json')).body
    const op = doc.paths['/v1/markets'].get
    expect(op.operationId).toBe('listMarkets')
    expect(Object.keys(op.responses)).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '429',
      '503',
    ])
    expect(op.parameters).toEqual([
      {
        name: 'venue',
        in: 'query',
        required: true,
        schema: { $ref: '#/components/schemas/Venue' },
      },
    ])
    expect(doc.components.schemas.MarketList).toBeDefined()
  })
})
