import { describe, expect, test } from 'vitest'
import type { ApiKeyRecord } from '../domain/apiKey.js'
import type { MarketData } from '../ports/marketData.js'
import { listMarkets } from './listMarkets.js'

const key = { venues: ['hl', 'aster'] } as unknown as ApiKeyRecord
const rules = (symbol: string) => ({
  venue: 'hl' as const,
  symbol,
  tickSize: '0.10',
  maxSigFigs: 5,
  sizeStep: '0.001',
  minNotionalUsd: '10',
  minBase: '0.001',
  maxLeverage: 20,
})

describe('listMarkets', () => {
  test('default: rules and quote; APY = hourly × 24 × 365', async () => {
    const markets: MarketData = {
      symbols: async () => ['BTC', 'GONE'],
      rules: async (_v, s) => (s === 'GONE' ? undefined : rules(s)),
      quote: async (venue, symbol) => ({
        venue,
        symbol,
        mark: '100.50',
        bid: '100.4',
        ask: '100.6',
        fundingRateHourly: '-0.00001',
        nextFundingAt: Date.UTC(2026, 0, 1, 1),
      }),
    }
    expect(await listMarkets({ markets }, key, 'hl')).toEqual({
      venue: 'hl',
      markets: [
        {
          symbol: 'BTC',
          tickSize: '0.1',
          sizeStep: '0.001',
          minBase: '0.001',
          minNotionalUsd: '10',
          maxLeverage: 20,
          mark: '100.5',
          bid: '100.4',
          ask: '100.6',
          fundingRateHourly: '-0.00001',
          fundingApy: '-8.76',
          nextFundingAt: '2026-01-01T01:00:00.000Z',
        },
      ],
    })
  })

  test('error: market data that cannot list answers market_data_unavailable', async () => {
    const markets = { rules: async () => undefined } as unknown as MarketData
    await expect(listMarkets({ markets }, key, 'hl')).rejects.toMatchObject({
      code: 'market_data_unavailable',
      status: 503,
    })
  })

  test('error: a quote failing for another reason fails the list', async () => {
    const markets: MarketData = {
      symbols: async () => ['BTC'],
      rules: async (_v, s) => rules(s),
      quote: async () => {
        throw new TypeError('bug')
      },
    }
    await expect(listMarkets({ markets }, key, 'hl')).rejects.toThrow('bug')
  })

  test('error: a venue the key does not grant', async () => {
    const markets = {} as MarketData
    await expect(
      listMarkets({ markets }, key, 'lighter'),
    ).rejects.toMatchObject({ code: 'venue_not_granted', status: 403 })
  })
})
