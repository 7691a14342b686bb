import { describe, expect, test } from 'vitest'
import { ASTER_LIMITS, asterRequestCharges } from './asterLimits.js'
import {
  asterLimitHeader,
  asterLimitsFromExchangeInfo,
  asterRateLimitEntries,
} from './asterRateLimitEntries.js'
import { asterOrderCount, asterRequestWeight } from './asterRequestWeight.js'

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'
const USER = '0xAbC0000000000000000000000000000000000001'

describe('asterLimits', () => {
  test('default: REQUEST_WEIGHT 2400/min per IP, ORDERS 1200/min per account', () => {
    expect(ASTER_LIMITS).toEqual([
      { id: 'REQUEST_WEIGHT', capacity: 2400, windowMs: 60_000, per: 'ip' },
      { id: 'ORDERS', capacity: 1200, windowMs: 60_000, per: 'account' },
    ])
  })

  test('behavior: every endpoint the adapter and binder use has its weight', () => {
    const cases: [Method, string, string, number][] = [
      ['GET', '/fapi/v3/exchangeInfo', '', 1],
      ['GET', '/fapi/v3/time', '', 1],
      ['GET', '/fapi/v3/premiumIndex', '', 1],
      ['GET', '/fapi/v3/premiumIndex', 'symbol=BTCUSDT', 1],
      ['GET', '/fapi/v3/ticker/bookTicker', '', 2],
      ['GET', '/fapi/v3/ticker/bookTicker', 'symbol=BTCUSDT', 1],
      ['GET', '/fapi/v3/fundingInfo', '', 1],
      ['GET', '/fapi/v3/fundingRate', 'symbol=BTCUSDT', 1],
      ['POST', '/fapi/v3/order', 'symbol=BTCUSDT&side=BUY', 1],
      ['GET', '/fapi/v3/order', 'symbol=BTCUSDT', 1],
      ['DELETE', '/fapi/v3/order', 'symbol=BTCUSDT', 1],
      // Modify Order (doc since 2026-04-16)
      ['PUT', '/fapi/v3/order', 'symbol=BTCUSDT&orderId=1', 1],
      ['GET', '/fapi/v3/positionRisk', '', 5],
      ['GET', '/fapi/v3/income', 'incomeType=FUNDING_FEE', 30],
      ['GET', '/fapi/v3/positionSide/dual', '', 30],
      ['POST', '/fapi/v3/positionSide/dual', 'dualSidePosition=false', 1],
      ['POST', '/fapi/v3/leverage', 'symbol=BTCUSDT&leverage=5', 1],
      ['POST', '/fapi/v3/marginType', 'symbol=BTCUSDT', 1],
      ['GET', '/fapi/v3/balance', '', 5],
      ['GET', '/fapi/v3/accountWithJoinMargin', '', 5],
      ['GET', '/fapi/v3/account', '', 5],
      ['GET', '/fapi/v3/leverageBracket', '', 1],
      ['GET', '/fapi/v3/openOrder', 'symbol=BTCUSDT', 1],
      ['GET', '/fapi/v3/allOrders', 'symbol=BTCUSDT', 5],
      ['DELETE', '/fapi/v3/allOpenOrders', 'symbol=BTCUSDT', 1],
      ['GET', '/fapi/v3/ticker/24hr', 'symbol=BTCUSDT', 1],
      ['GET', '/fapi/v3/builder', '', 1],
      ['POST', '/fapi/v3/approveBuilder', 'builder=0x', 1],
      ['GET', '/fapi/v3/agent', '', 1],
      ['POST', '/fapi/v3/approveAgent', 'agentName=x', 1],
      ['POST', '/fapi/v3/registerAndApproveAgent', '', 50],
      ['POST', '/fapi/v3/listenKey', '', 1],
      ['PUT', '/fapi/v3/listenKey', '', 1],
      ['GET', '/fapi/v3/openOrders', '', 40],
      ['GET', '/fapi/v3/openOrders', 'symbol=BTCUSDT', 1],
      ['POST', '/fapi/v3/batchOrders', '', 5],
      ['GET', '/fapi/v3/depth', 'symbol=BTCUSDT&limit=20', 2],
      ['GET', '/fapi/v3/depth', 'symbol=BTCUSDT', 10],
      ['GET', '/fapi/v3/depth', 'symbol=BTCUSDT&limit=1000', 20],
      ['GET', '/fapi/v3/klines', 'symbol=BTCUSDT&limit=99', 1],
      ['GET', '/fapi/v3/klines', 'symbol=BTCUSDT', 5],
      ['GET', '/fapi/v3/klines', 'symbol=BTCUSDT&limit=1500', 10],
      ['GET', '/fapi/v3/ticker/24hr', '', 40],
    ]
    for (const [method, path, params, weight] of cases) {
      expect([
        method,
        path,
        params,
        asterRequestWeight(method, path, params),
      ]).toEqual([method, path, params, weight])
    }
  })

  test('behavior: orders count per account; cancels and reads do not', () => {
    expect(asterRequestCharges('POST', '/fapi/v3/order', 'a=1', USER)).toEqual([
      { limit: 'REQUEST_WEIGHT', weight: 1 },
      { limit: 'ORDERS', weight: 1, account: USER.toLowerCase() },
    ])
    expect(asterRequestCharges('DELETE', '/fapi/v3/order', '', USER)).toEqual([
      { limit: 'REQUEST_WEIGHT', weight: 1 },
    ])
    expect(asterRequestCharges('POST', '/fapi/v3/order', '', null)).toEqual([
      { limit: 'REQUEST_WEIGHT', weight: 1 },
    ])
    const batch = new URLSearchParams({
      batchOrders: JSON.stringify([{}, {}, {}]),
    }).toString()
    expect(asterOrderCount('POST', '/fapi/v3/batchOrders', batch)).toBe(3)
    expect(asterOrderCount('PUT', '/fapi/v3/order', '')).toBe(1)
    expect(asterOrderCount('GET', '/fapi/v3/order', '')).toBe(0)
  })

  test('behavior: exchangeInfo rateLimits round-trip, headers per limit', () => {
    const entries = asterRateLimitEntries(ASTER_LIMITS)
    expect(entries).toEqual([
      {
        rateLimitType: 'REQUEST_WEIGHT',
        interval: 'MINUTE',
        intervalNum: 1,
        limit: 2400,
      },
      {
        rateLimitType: 'ORDERS',
        interval: 'MINUTE',
        intervalNum: 1,
        limit: 1200,
      },
    ])
    expect(asterLimitsFromExchangeInfo(entries)).toEqual(ASTER_LIMITS)
    const live = asterLimitsFromExchangeInfo([
      ...entries,
      {
        rateLimitType: 'ORDERS',
        interval: 'SECOND',
        intervalNum: 10,
        limit: 300,
      },
      {
        rateLimitType: 'RAW_REQUESTS',
        interval: 'MINUTE',
        intervalNum: 5,
        limit: 6100,
      },
      {
        rateLimitType: 'ORDERS',
        interval: 'FORTNIGHT',
        intervalNum: 1,
        limit: 1,
      },
      'junk',
    ])
    expect(live.slice(2)).toEqual([
      { id: 'ORDERS:10S', capacity: 300, windowMs: 10_000, per: 'account' },
      { id: 'RAW_REQUESTS:5M', capacity: 6100, windowMs: 300_000, per: 'ip' },
    ])
    expect(live.map(asterLimitHeader)).toEqual([
      'X-MBX-USED-WEIGHT-1M',
      'X-MBX-ORDER-COUNT-1M',
      'X-MBX-ORDER-COUNT-10S',
      null,
    ])
    expect(
      asterRequestCharges('POST', '/fapi/v3/order', '', USER, live),
    ).toEqual([
      { limit: 'REQUEST_WEIGHT', weight: 1 },
      { limit: 'ORDERS', weight: 1, account: USER.toLowerCase() },
      { limit: 'ORDERS:10S', weight: 1, account: USER.toLowerCase() },
      { limit: 'RAW_REQUESTS:5M', weight: 1 },
    ])
  })

  test('error: not a list → no limits', () => {
    expect(asterLimitsFromExchangeInfo(undefined)).toEqual([])
  })
})
