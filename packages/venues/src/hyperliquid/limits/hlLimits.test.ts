import { describe, expect, test } from 'vitest'
import {
  HL_LIMITS,
  hlAnswerCharges,
  hlExchangeWeight,
  hlRequestCharges,
} from './hlLimits.js'

const weightOf = (path: '/info' | '/exchange', body: unknown) =>
  hlRequestCharges(path, body).reduce((s, c) => s + c.weight, 0)

describe('hlLimits', () => {
  test('default: 1200 weight per minute per IP', () => {
    expect(HL_LIMITS).toEqual([
      { id: 'weight', capacity: 1200, windowMs: 60_000, per: 'ip' },
    ])
  })

  test('behavior: every /info read the adapter and binder send', () => {
    const cases: [string, number][] = [
      ['clearinghouseState', 2],
      ['orderStatus', 2],
      ['l2Book', 2],
      ['allMids', 2],
      ['spotClearinghouseState', 2],
      ['exchangeStatus', 2],
      ['userRole', 60],
      ['metaAndAssetCtxs', 20],
      ['meta', 20],
      ['perpDexs', 20],
      ['extraAgents', 20],
      ['maxBuilderFee', 20],
      ['userFillsByTime', 20],
      ['userFunding', 20],
      ['openOrders', 20],
      ['frontendOpenOrders', 20],
    ]
    for (const [type, weight] of cases) {
      expect([type, weightOf('/info', { type, user: '0x1' })]).toEqual([
        type,
        weight,
      ])
    }
    expect(hlRequestCharges('/info', { type: 'l2Book' })).toEqual([
      { limit: 'weight', weight: 2 },
    ])
  })

  test('behavior: /exchange weighs 1 + floor(batch / 40)', () => {
    const orders = (n: number) => ({
      action: { type: 'order', orders: new Array(n).fill({}) },
    })
    expect(weightOf('/exchange', orders(1))).toBe(1)
    expect(weightOf('/exchange', orders(39))).toBe(1)
    expect(weightOf('/exchange', orders(40))).toBe(2)
    expect(weightOf('/exchange', orders(79))).toBe(2)
    expect(weightOf('/exchange', orders(80))).toBe(3)
    expect(
      hlExchangeWeight({ type: 'cancelByCloid', cancels: new Array(40) }),
    ).toBe(2)
    for (const type of [
      'scheduleCancel',
      'updateLeverage',
      'approveAgent',
      'approveBuilderFee',
      'usdSend',
    ]) {
      expect(weightOf('/exchange', { action: { type } })).toBe(1)
    }
  })

  test('behavior: list reads add 1 per 20 items returned, candles per 60', () => {
    const items = (n: number) => new Array(n).fill({})
    const extra = (type: string, n: number) =>
      hlAnswerCharges('/info', { type }, items(n))
    expect(extra('userFillsByTime', 19)).toEqual([])
    expect(extra('userFillsByTime', 20)).toEqual([
      { limit: 'weight', weight: 1 },
    ])
    expect(extra('userFunding', 45)).toEqual([{ limit: 'weight', weight: 2 }])
    expect(extra('userFills', 100)).toEqual([{ limit: 'weight', weight: 5 }])
    expect(extra('candleSnapshot', 59)).toEqual([])
    expect(extra('candleSnapshot', 120)).toEqual([
      { limit: 'weight', weight: 2 },
    ])
    expect(extra('metaAndAssetCtxs', 500)).toEqual([])
    expect(hlAnswerCharges('/exchange', { action: {} }, items(40))).toEqual([])
  })

  test('error: an unreadable body weighs as another documented request', () => {
    expect(weightOf('/info', null)).toBe(20)
    expect(weightOf('/exchange', 'x')).toBe(1)
    expect(hlAnswerCharges('/info', null, [])).toEqual([])
  })
})
