import { describe, expect, test } from 'vitest'
import type { MarketQuote } from '../ports/marketData.js'
import { openingGate } from './openingGate.js'

const quote = (mark: string, fundingRateHourly: string): MarketQuote => ({
  venue: 'hl',
  symbol: 'BTC',
  mark,
  bid: mark,
  ask: mark,
  fundingRateHourly,
})
const task = {
  autoClose: true,
  minFundingApy: '0',
  maxSpreadBps: null as string | null,
}

describe('openingGate', () => {
  test('default: rules met, the task opens', () => {
    expect(
      openingGate(task, {
        long: quote('100', '0'),
        short: quote('100', '0.00001'),
      }),
    ).toBeNull()
  })

  test('funding: the APY in percent against minFundingApy in percent', () => {
    // (0.0000035 − 0) × 8760 × 100 = 3.066 %, under 5 %
    const r = openingGate(
      { ...task, minFundingApy: '5' },
      { long: quote('100', '0'), short: quote('100', '0.0000035') },
    )
    expect(r).toEqual({
      code: 'funding_below_min',
      message: 'funding APY 3.07% < minFundingApy 5%',
      fundingApy: '3.07',
      minFundingApy: '5',
    })
    // exactly at the minimum opens
    expect(
      openingGate(
        { ...task, minFundingApy: '8.76' },
        { long: quote('100', '0'), short: quote('100', '0.00001') },
      ),
    ).toBeNull()
  })

  test('funding: not checked without autoClose', () => {
    expect(
      openingGate(
        { ...task, autoClose: false, minFundingApy: '500' },
        { long: quote('100', '0.001'), short: quote('100', '0') },
      ),
    ).toBeNull()
  })

  test('spread: the marks apart in bps of the lower one', () => {
    // |100.12 − 100| / 100 = 12 bps
    const r = openingGate(
      { ...task, maxSpreadBps: '1' },
      { long: quote('100.12', '0'), short: quote('100', '0') },
    )
    expect(r).toEqual({
      code: 'spread_above_max',
      message: 'spread 12 bps > maxSpreadBps 1',
      spreadBps: '12',
      maxSpreadBps: '1',
    })
    expect(
      openingGate(
        { ...task, maxSpreadBps: '12' },
        { long: quote('100', '0'), short: quote('100.12', '0') },
      ),
    ).toBeNull()
  })

  test('funding is checked before spread', () => {
    const r = openingGate(
      { ...task, minFundingApy: '1', maxSpreadBps: '1' },
      { long: quote('110', '0.0001'), short: quote('100', '0') },
    )
    expect(r?.code).toBe('funding_below_min')
  })
})
