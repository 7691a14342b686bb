import { describe, expect, test } from 'vitest'
import { createHlCumFunding } from './hlCumFunding.js'

const H = Date.UTC(2026, 10, 26, 14)
const HOUR = 3_600_000
const USER = '0x00000000000000000000000000000000000000a1'

/** a clearinghouseState with one position per coin: [szi, allTime] */
const state = (coins: Record<string, [string, string]>) => ({
  assetPositions: Object.entries(coins).map(([coin, [szi, allTime]]) => ({
    type: 'oneWay',
    position: {
      coin,
      szi,
      positionValue: String(Math.abs(Number(szi)) * 100_000),
      cumFunding: { allTime, sinceOpen: allTime, sinceChange: allTime },
    },
  })),
  time: 0,
})

describe('createHlCumFunding', () => {
  test('the payment of a settlement is the change of cumulative funding across it (positive paid)', () => {
    const c = createHlCumFunding()
    c.observe(USER, H - 20_000, state({ BTC: ['0.5', '1.25'] }))
    c.observe(USER, H + 8_000, state({ BTC: ['0.5', '1.75'] }))
    expect(c.payment(USER, 'BTC', H)).toEqual({
      market: 'BTC',
      time: new Date(H).toISOString(),
      amountUsd: '-0.5',
      // paid 0.5 on 0.5 x 100,000: a positive rate, as longs pay it
      rate: '0.00001',
      positionSize: '0.5',
    })
    // a short receives a positive rate
    c.observe(USER, H + HOUR - 1_000, state({ BTC: ['-0.5', '1.75'] }))
    c.observe(USER, H + HOUR + 6_000, state({ BTC: ['-0.5', '1.5'] }))
    expect(c.payment(USER, 'BTC', H + HOUR)).toMatchObject({
      amountUsd: '0.25',
      rate: '0.000005',
      positionSize: '-0.5',
    })
  })

  test('no position on either side: no payment; a coin on one side only: the states cannot tell', () => {
    const c = createHlCumFunding()
    c.observe(USER, H - 20_000, state({ BTC: ['0.5', '1'] }))
    c.observe(USER, H + 8_000, state({ ETH: ['2', '0'] }))
    expect(c.payment(USER, 'SOL', H)).toBeNull()
    expect(c.payment(USER, 'BTC', H)).toBeUndefined()
    expect(c.payment(USER, 'ETH', H)).toBeUndefined()
  })

  test('a size change across the settlement, or our own order around it, defers to the venue record', () => {
    const c = createHlCumFunding()
    c.observe(USER, H - 20_000, state({ BTC: ['0.5', '1'] }))
    c.observe(USER, H + 8_000, state({ BTC: ['0.7', '1.5'] }))
    expect(c.payment(USER, 'BTC', H)).toBeUndefined()

    const d = createHlCumFunding()
    d.observe(USER, H - 20_000, state({ BTC: ['0.5', '1'], ETH: ['1', '0'] }))
    d.traded(USER, 'BTC', H - 10_000)
    d.observe(USER, H + 8_000, state({ BTC: ['0.5', '1.5'], ETH: ['1', '0'] }))
    expect(d.payment(USER, 'BTC', H)).toBeUndefined()
    // the other coin is untouched
    expect(d.payment(USER, 'ETH', H)).toMatchObject({ amountUsd: '0' })
  })

  test('states must bracket exactly that settlement, and one of its first seconds is not kept', () => {
    const c = createHlCumFunding()
    // before from two hours earlier: two settlements between
    c.observe(USER, H - HOUR - 20_000, state({ BTC: ['0.5', '1'] }))
    c.observe(USER, H + 8_000, state({ BTC: ['0.5', '1.5'] }))
    expect(c.payment(USER, 'BTC', H)).toBeUndefined()

    const d = createHlCumFunding()
    d.observe(USER, H - 20_000, state({ BTC: ['0.5', '1'] }))
    // may or may not show the settlement yet
    d.observe(USER, H + 2_000, state({ BTC: ['0.5', '1'] }))
    expect(d.settledStateHeld(USER, H)).toBe(false)
    expect(d.payment(USER, 'BTC', H)).toBeUndefined()
    d.observe(USER, H + 5_000, state({ BTC: ['0.5', '1.5'] }))
    expect(d.settledStateHeld(USER, H)).toBe(true)
    expect(d.payment(USER, 'BTC', H)?.amountUsd).toBe('-0.5')
    // a later state of the same hour keeps the bracket
    d.observe(USER, H + 60_000, state({ BTC: ['0.5', '1.5'] }))
    expect(d.payment(USER, 'BTC', H)?.amountUsd).toBe('-0.5')
    // an older answer arriving late changes nothing
    d.observe(USER, H - 1_000, state({ BTC: ['0.5', '9'] }))
    expect(d.payment(USER, 'BTC', H)?.amountUsd).toBe('-0.5')
  })

  test('a state without cumulative funding is not kept', () => {
    const c = createHlCumFunding()
    const bare = state({ BTC: ['0.5', '1'] })
    for (const ap of bare.assetPositions) {
      delete (ap.position as { cumFunding?: unknown }).cumFunding
    }
    c.observe(USER, H - 20_000, bare)
    c.observe(USER, H + 8_000, state({ BTC: ['0.5', '1.5'] }))
    expect(c.payment(USER, 'BTC', H)).toBeUndefined()
  })
})
