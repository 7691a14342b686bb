import { describe, expect, test } from 'vitest'
import {
  LIGHTER_STANDARD_HEAVY,
  lighterEndpoint,
  lighterEndpointWeight,
} from './lighterEndpointWeight.js'
import { lighterLimits, lighterRequestCharges } from './lighterLimits.js'

const L1 = '0xAbC0000000000000000000000000000000000001'
const l1 = L1.toLowerCase()

describe('lighterLimits', () => {
  test('default: standard is 60 requests a rolling minute per IP and per L1', () => {
    const limits = lighterLimits('standard')
    expect(limits.slice(0, 2)).toEqual([
      { id: 'ip', capacity: 60, windowMs: 60_000, per: 'ip' },
      { id: 'l1', capacity: 60, windowMs: 60_000, per: 'account' },
    ])
    expect(limits.find((l) => l.id === 'tx')).toBeUndefined()
    expect(lighterLimits('standard')).toBe(limits)
  })

  test('behavior: weighted tiers and their tx buckets', () => {
    const of = (tier: Parameters<typeof lighterLimits>[0]) =>
      Object.fromEntries(lighterLimits(tier).map((l) => [l.id, l.capacity]))
    expect(of('premium')).toEqual({ ip: 24_000, l1: 24_000, tx: 4_000 })
    expect(of('plus')).toEqual({ ip: 120_000, l1: 120_000, tx: 8_000 })
    expect(of('builder')).toEqual({ ip: 240_000, l1: 240_000, tx: 60 })
  })

  test('behavior: standard caps endpoints heavier than 24 000 / 60', () => {
    expect(LIGHTER_STANDARD_HEAVY).toEqual({
      transferFeeInfo: 48,
      trades: 40,
      recentTrades: 40,
      changeAccountTier: 8,
      tokens: 8,
      'tokens/revoke': 8,
      setAccountMetadata: 8,
      'notification/ack': 8,
      createIntentAddress: 8,
      fastwithdraw: 8,
      'referral/*': 8,
      'tokens/create': 1,
    })
    const ids = lighterLimits('standard').map((l) => l.id)
    expect(ids).toContain('ip:changeAccountTier')
    expect(ids).toContain('l1:trades')
  })

  test('behavior: every endpoint the adapter and binder use has its weight', () => {
    const cases: [string, number][] = [
      ['sendTx', 6],
      ['sendTxBatch', 6],
      ['nextNonce', 6],
      ['apikeys', 150],
      ['accountInactiveOrders', 100],
      ['publicPools', 50],
      ['txFromL1TxHash', 50],
      ['trades', 600],
      ['recentTrades', 600],
      ['orderBookDetails', 300],
      ['orderBookOrders', 300],
      ['funding-rates', 300],
      ['fundings', 300],
      ['account', 300],
      ['accountsByL1Address', 300],
      ['accountOrders', 300],
      ['accountActiveOrders', 300],
      ['positionFunding', 300],
      ['tx', 300],
      ['changeAccountTier', 3000],
      ['referral/points', 3000],
      ['tokens/create', 23000],
    ]
    for (const [path, weight] of cases) {
      expect([path, lighterEndpointWeight(path)]).toEqual([path, weight])
    }
    expect(lighterEndpoint('/api/v1/apikeys?account_index=1')).toBe('apikeys')
  })

  test('behavior: anonymous reads count per IP, authenticated per L1 only', () => {
    expect(lighterRequestCharges('standard', 'orderBookDetails', null)).toEqual(
      [{ limit: 'ip', weight: 1 }],
    )
    expect(lighterRequestCharges('standard', 'accountOrders', L1)).toEqual([
      { limit: 'l1', weight: 1, account: l1 },
    ])
    expect(lighterRequestCharges('premium', 'apikeys', null)).toEqual([
      { limit: 'ip', weight: 150 },
    ])
    expect(lighterRequestCharges('premium', 'positionFunding', L1)).toEqual([
      { limit: 'l1', weight: 300, account: l1 },
    ])
  })

  test('behavior: sendTx counts per L1 address only', () => {
    expect(lighterRequestCharges('standard', 'sendTx', L1)).toEqual([
      { limit: 'l1', weight: 1, account: l1 },
    ])
    expect(lighterRequestCharges('premium', 'sendTx', L1)).toEqual([
      { limit: 'tx', weight: 1, account: l1 },
    ])
    expect(lighterRequestCharges('builder', 'sendTxBatch', L1)).toEqual([
      { limit: 'tx', weight: 1, account: l1 },
    ])
    // without an address the venue could not attribute it: per IP
    expect(lighterRequestCharges('premium', 'sendTx', null)).toEqual([
      { limit: 'ip', weight: 6 },
    ])
  })

  test('behavior: a heavy endpoint also counts against its own cap', () => {
    expect(lighterRequestCharges('standard', 'trades', null)).toEqual([
      { limit: 'ip', weight: 1 },
      { limit: 'ip:trades', weight: 1 },
    ])
    expect(lighterRequestCharges('standard', 'changeAccountTier', L1)).toEqual([
      { limit: 'l1', weight: 1, account: l1 },
      { limit: 'l1:changeAccountTier', weight: 1, account: l1 },
    ])
    expect(lighterRequestCharges('premium', 'trades', null)).toEqual([
      { limit: 'ip', weight: 600 },
    ])
  })
})
