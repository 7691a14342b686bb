import {
  isValidPrice,
  VenueAccountNotFoundError,
  VenueRejectedError,
} from '@dn/core'
import { describe, expect, test } from 'vitest'
import { createSimExchange } from './simExchange.js'
import { SIM_MARKETS } from './simMarkets.js'
import { OWNER, rejectReason, simTestKit, T0 } from './simTestKit.js'

const HL = ['BTC', 'ETH', 'SOL', 'xyz:TSLA']

describe('marks', () => {
  test('behavior: same seed and same times give identical marks', () => {
    const a = simTestKit({ seed: 42 })
    const b = simTestKit({ seed: 42 })
    for (const t of [1_000, 2_500, 60_000, 61_000, 3_600_000]) {
      a.setNow(T0 + t)
      b.setNow(T0 + t)
      for (const s of HL) expect(a.ex.quote(s)).toEqual(b.ex.quote(s))
    }
  })

  test('behavior: marks depend on time only, not on how often they are read', () => {
    const often = simTestKit({ seed: 3 })
    const once = simTestKit({ seed: 3 })
    for (let i = 1; i <= 600; i++) {
      often.advance(1_000)
      often.ex.quote('ETH')
    }
    once.advance(600_000)
    for (const s of HL) expect(once.ex.quote(s)).toEqual(often.ex.quote(s))
  })

  test('behavior: different seeds give different walks', () => {
    const a = simTestKit({ seed: 1 })
    const b = simTestKit({ seed: 2 })
    const seen: [string, string][] = []
    for (let i = 0; i < 20; i++) {
      a.advance(1_000)
      b.advance(1_000)
      seen.push([a.ex.quote('BTC').mark, b.ex.quote('BTC').mark])
    }
    expect(seen.some(([x, y]) => x !== y)).toBe(true)
  })

  test('behavior: marks move in small steps and stay on the price grid', () => {
    for (const venue of [
      'hl',
      'lighter',
      'lighter-mainnet',
      'aster',
    ] as const) {
      const k = simTestKit({ venue })
      for (const rules of k.ex.listed()) {
        let prev = Number(k.ex.quote(rules.symbol).mark)
        let moved = false
        for (let i = 0; i < 300; i++) {
          k.advance(1_000)
          const q = k.ex.quote(rules.symbol)
          expect(isValidPrice(rules, q.mark), `${venue} ${q.mark}`).toBe(true)
          expect(isValidPrice(rules, q.bid) && isValidPrice(rules, q.ask)).toBe(
            true,
          )
          expect(Number(q.bid) < Number(q.mark)).toBe(true)
          expect(Number(q.ask) > Number(q.mark)).toBe(true)
          // +-0.05 % plus rounding away onto the grid
          expect(Math.abs(Number(q.mark) - prev) / prev).toBeLessThan(0.001)
          moved ||= Number(q.mark) !== prev
          prev = Number(q.mark)
        }
        expect(moved).toBe(true)
      }
    }
  })

  test('behavior: setMark pins a mark until released', () => {
    const k = simTestKit()
    k.ex.setMark('BTC', '95000')
    k.advance(10_000)
    expect(k.ex.quote('BTC').mark).toBe('95000')
    k.ex.setMark('BTC', null)
    k.advance(60_000)
    expect(k.ex.quote('BTC').mark).not.toBe('95000')
    expect(() => k.ex.setMark('BTCUSDT', '1')).toThrow(RangeError)
  })
})

describe('listing and book', () => {
  test('default: each venue lists its own symbol form and precision', () => {
    const hl = simTestKit({ venue: 'hl' }).ex
    const aster = simTestKit({ venue: 'aster' }).ex
    const lighter = simTestKit({ venue: 'lighter' }).ex
    expect(hl.listed().map((r) => r.symbol)).toEqual(HL)
    expect(aster.rules('BTCUSDT')).toMatchObject({ minNotionalUsd: '5' })
    expect(aster.rules('BTC')).toBeUndefined()
    expect(lighter.rules('BTC')).toMatchObject({ minBase: '0.0002' })
    expect(hl.rules('BTC')).toMatchObject({ maxSigFigs: 5, tickSize: '0.1' })
    expect(() => hl.quote('BTCUSDT')).toThrow(VenueRejectedError)
  })

  test('behavior: funding rates differ by venue', () => {
    const rates = (['hl', 'lighter', 'aster'] as const).map((venue) => {
      const ex = simTestKit({ venue }).ex
      return ex.quote(venue === 'aster' ? 'BTCUSDT' : 'BTC').fundingRateHourly
    })
    expect(new Set(rates).size).toBe(3)
    for (const r of rates) expect(Number(r)).toBeGreaterThan(0)
  })

  test('behavior: the book has depth growing away from the mark', () => {
    const book = simTestKit().ex.book('BTC')
    expect(book.asks).toHaveLength(10)
    expect(book.bids).toHaveLength(10)
    for (let i = 1; i < 10; i++) {
      const [a0, a1] = [book.asks[i - 1], book.asks[i]]
      expect(a1?.price.gt(a0?.price ?? 0)).toBe(true)
      expect(a1?.size.gt(a0?.size ?? 0)).toBe(true)
      expect(book.bids[i]?.price.lt(book.bids[i - 1]?.price ?? 0)).toBe(true)
    }
  })

  test('behavior: only listed markets of the venue are used', () => {
    const ex = createSimExchange({
      venue: 'aster',
      seed: 1,
      clock: { now: () => T0 },
      markets: SIM_MARKETS.filter((m) => m.symbol !== 'ETHUSDT'),
    })
    expect(ex.listed().map((r) => r.symbol)).toEqual(['BTCUSDT', 'SOLUSDT'])
  })
})

describe('accounts', () => {
  test('behavior: faucet indexes are stable per owner and top up', () => {
    const k = simTestKit({ fund: 0 })
    expect(k.ex.faucet(OWNER, 1_000)).toEqual({ accountIndex: 1 })
    expect(k.ex.faucet('0xB', 5)).toEqual({ accountIndex: 2 })
    expect(k.ex.faucet(OWNER.toUpperCase().replace('0X', '0x'), 500)).toEqual({
      accountIndex: 1,
    })
    expect(k.ex.account(OWNER).collateralUsd).toBe('1500')
    expect(() => k.ex.faucet(OWNER, 0)).toThrow(RangeError)
  })

  test('error: calls for an owner without an account', () => {
    const k = simTestKit({ fund: 0 })
    const calls = [
      () => k.ex.place('0xnobody', k.req()),
      () => k.ex.order('0xnobody', 'x'),
      () => k.ex.cancel('0xnobody', 'x'),
      () => k.ex.positions('0xnobody'),
      () => k.ex.openOrders('0xnobody'),
      () => k.ex.funding('0xnobody', 'BTC', new Date(T0).toISOString()),
      () => k.ex.setLeverage('0xnobody', 'BTC', 5, 'cross'),
      () => k.ex.accountIndex('0xnobody'),
    ]
    for (const call of calls) expect(call).toThrow(VenueAccountNotFoundError)
  })

  test('behavior: leverage and margin mode per market, checked', () => {
    const k = simTestKit()
    k.ex.place(OWNER, k.req())
    expect(k.ex.positions(OWNER)[0]).toMatchObject({
      leverage: '10',
      marginMode: 'cross',
    })
    k.ex.setLeverage(OWNER, 'BTC', 20, 'cross')
    expect(k.ex.positions(OWNER)[0]?.leverage).toBe('20')
    expect(
      rejectReason(() => k.ex.setLeverage(OWNER, 'BTC', 41, 'cross')),
    ).toBe('Invalid leverage value.')
    expect(
      rejectReason(() => k.ex.setLeverage(OWNER, 'BTC', 5, 'isolated')),
    ).toBe('Cannot switch leverage type with open position.')
    k.ex.setLeverage(OWNER, 'xyz:TSLA', 3, 'isolated')
    k.ex.place(OWNER, k.req({ market: 'xyz:TSLA', size: '1', price: '260' }))
    const tsla = k.ex.positions(OWNER).find((p) => p.market === 'xyz:TSLA')
    expect(tsla).toMatchObject({ leverage: '3', marginMode: 'isolated' })
  })
})
