import { describe, expect, test } from 'vitest'
import { OWNER, simTestKit } from './simTestKit.js'

describe('liquidation price model', () => {
  test('behavior: isolated and cross differ; cross uses the whole account', () => {
    const iso = simTestKit()
    iso.ex.setLeverage(OWNER, 'BTC', 10, 'isolated')
    iso.ex.place(OWNER, iso.req({ size: '1' }))
    // entry 100011, margin 10001.1, mmr 1/80:
    // (100011 - 10001.1) / (1 - 0.0125) = 91149.26 -> 91150 on the grid
    expect(iso.ex.positions(OWNER)[0]).toMatchObject({
      entryPrice: '100011',
      marginMode: 'isolated',
      liquidationPrice: '91150',
    })
    const cross = simTestKit()
    cross.ex.place(OWNER, cross.req({ size: '1' }))
    // the taker fee (0.045% of 100011 = 45.00495) leaves 99954.99505:
    // (100011 - 99954.99505) / 0.9875 = 56.72 -> 56.8 on the 0.1 tick
    expect(cross.ex.account(OWNER).collateralUsd).toBe('99954.99505')
    expect(cross.ex.positions(OWNER)[0]?.liquidationPrice).toBe('56.8')
    const short = simTestKit()
    short.ex.place(
      OWNER,
      short.req({ side: 'short', size: '1', price: '99000' }),
    )
    // after the fee (44.99505): (99955.00495 + 99989) / 1.0125 =
    // 197475.56 -> down, toward the mark
    expect(short.ex.positions(OWNER)[0]?.liquidationPrice).toBe('197475')
  })
})

describe('liquidation', () => {
  test('behavior: isolated position is closed when the mark reaches its price', () => {
    const k = simTestKit()
    k.ex.setLeverage(OWNER, 'BTC', 10, 'isolated')
    k.ex.place(OWNER, k.req({ size: '1' }))
    const resting = k.req({
      side: 'short',
      price: '120000',
      timeInForce: 'gtc',
    })
    k.ex.place(OWNER, resting)
    k.ex.setMark('BTC', '91151')
    expect(k.ex.positions(OWNER)).toHaveLength(1)
    expect(k.ex.liquidations(OWNER)).toEqual([])
    k.ex.setMark('BTC', '91150')
    expect(k.ex.positions(OWNER)).toEqual([])
    const [liq] = k.ex.liquidations(OWNER)
    expect(liq).toMatchObject({
      market: 'BTC',
      size: '1',
      price: '91150',
      marginMode: 'isolated',
      pnlUsd: '-8861',
    })
    // 100000 - 8861 lost - 45.00495 taker fee on the opening fill
    expect(k.ex.account(OWNER).collateralUsd).toBe('91093.99505')
    expect(k.ex.order(OWNER, resting.clientOrderId)).toMatchObject({
      state: 'cancelled',
      venueStatus: 'liquidatedCanceled',
    })
  })

  test('behavior: isolated loss is capped at its margin on a gap', () => {
    const k = simTestKit({ venue: 'lighter' })
    k.ex.setLeverage(OWNER, 'BTC', 10, 'isolated')
    k.ex.place(OWNER, k.req({ size: '1' }))
    k.ex.setMark('BTC', '50000')
    expect(k.ex.liquidations(OWNER)[0]?.pnlUsd).toBe('-10001.1')
    expect(k.ex.account(OWNER).collateralUsd).toBe('89998.9')
  })

  test('behavior: a cross breach closes every cross position, not isolated ones', () => {
    const k = simTestKit()
    k.ex.setLeverage(OWNER, 'ETH', 5, 'isolated')
    k.ex.place(OWNER, k.req({ market: 'ETH', size: '1', price: '3600' }))
    k.ex.place(OWNER, k.req({ size: '5', price: '101000' }))
    k.ex.place(OWNER, k.req({ market: 'SOL', size: '10', price: '160' }))
    const btc = k.ex.positions(OWNER).find((p) => p.market === 'BTC')
    const sol = k.ex.positions(OWNER).find((p) => p.market === 'SOL')
    const liq = Number(btc?.liquidationPrice)
    expect(liq).toBeGreaterThan(70_000)
    // alone, SOL cannot drain the pool (null), but it shares BTC's fate
    expect(sol?.liquidationPrice).toBeNull()
    k.ex.setMark('BTC', String(liq + 1))
    expect(k.ex.positions(OWNER)).toHaveLength(3)
    k.ex.setMark('BTC', String(liq))
    expect(k.ex.positions(OWNER).map((p) => p.market)).toEqual(['ETH'])
    expect(
      k.ex.liquidations(OWNER).map((l) => [l.market, l.marginMode]),
    ).toEqual([
      ['BTC', 'cross'],
      ['SOL', 'cross'],
    ])
    expect(Number(k.ex.account(OWNER).collateralUsd)).toBeGreaterThan(0)
  })

  test('behavior: a leveraged position is liquidated by the walk itself', () => {
    const k = simTestKit({ seed: 5 })
    k.ex.setLeverage(OWNER, 'BTC', 40, 'isolated')
    k.ex.place(OWNER, k.req({ size: '0.5' }))
    const liq = Number(k.ex.positions(OWNER)[0]?.liquidationPrice)
    for (let i = 0; i < 40 && k.ex.liquidations(OWNER).length === 0; i++) {
      k.advance(600_000)
    }
    const [event] = k.ex.liquidations(OWNER)
    expect(event).toBeDefined()
    expect(Number(event?.price)).toBeLessThanOrEqual(liq)
    // the loss stops at the isolated margin (0.5 x 100008 / 40)
    expect(Number(event?.pnlUsd)).toBeGreaterThanOrEqual(-1250.1)
    expect(k.ex.positions(OWNER)).toEqual([])
  })
})
