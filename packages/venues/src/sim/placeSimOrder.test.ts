import { dec, decString } from '@dn/core'
import { describe, expect, test } from 'vitest'
import { createSimExchange } from './simExchange.js'
import { OWNER, rejectReason, simTestKit } from './simTestKit.js'

describe('IOC', () => {
  test('behavior: a large market-style buy walks the book and slips', () => {
    const k = simTestKit()
    const { ask } = k.ex.quote('BTC')
    const o = k.ex.place(OWNER, k.req({ size: '3', price: '101000' }))
    expect(o).toMatchObject({ state: 'filled', filledBase: '3', size: '3' })
    expect(o.venueStatus).toBe('filled')
    expect(Number(o.averagePrice)).toBeGreaterThan(Number(ask))
    expect(Number(o.averagePrice)).toBeLessThanOrEqual(101_000)
  })

  test('behavior: never fills beyond the protection price', () => {
    const k = simTestKit()
    const o = k.ex.place(OWNER, k.req({ size: '3', price: '100015' }))
    // levels 100005 x 0.2, 100010 x 0.4, 100015 x 0.6; the rest is cancelled
    expect(o).toMatchObject({
      state: 'cancelled',
      venueStatus: 'canceled',
      filledBase: '1.2',
      averagePrice: '100011.6666667',
    })
    expect(k.ex.positions(OWNER)[0]?.size).toBe('1.2')
    const sell = k.ex.place(
      OWNER,
      k.req({ side: 'short', size: '3', price: '99990', reduceOnly: true }),
    )
    expect(Number(sell.averagePrice)).toBeGreaterThanOrEqual(99_990)
  })

  test('behavior: liquidity taken stays taken until the step or mark moves', () => {
    const k = simTestKit()
    k.ex.place(OWNER, k.req({ size: '0.2' }))
    expect(k.ex.quote('BTC').ask).toBe('100010')
    k.advance(1_000)
    const q = k.ex.quote('BTC')
    expect(Number(q.ask) - Number(q.mark)).toBe(5)
  })

  test('behavior: Aster reports an IOC remainder as EXPIRED', () => {
    const k = simTestKit({ venue: 'aster' })
    const o = k.ex.place(
      OWNER,
      k.req({ market: 'BTCUSDT', size: '1', price: '100005' }),
    )
    expect(o).toMatchObject({
      state: 'expired',
      venueStatus: 'EXPIRED',
      filledBase: '0.2',
    })
    const none = k.ex.place(
      OWNER,
      k.req({ market: 'BTCUSDT', size: '0.01', price: '99000' }),
    )
    expect(none).toMatchObject({ filledBase: '0', averagePrice: null })
  })
})

describe('GTC and post-only', () => {
  test('behavior: GTC rests, then fills at its price once the mark crosses', () => {
    const k = simTestKit()
    const o = k.ex.place(
      OWNER,
      k.req({ price: '99990', timeInForce: 'gtc', size: '0.05' }),
    )
    expect(o).toMatchObject({ state: 'open', venueStatus: 'open' })
    expect(k.ex.openOrders(OWNER)).toHaveLength(1)
    let steps = 0
    for (; steps < 5_000; steps++) {
      const before = k.ex.order(OWNER, o.clientOrderId)
      if (before?.state === 'filled') break
      expect(before?.state).toBe('open')
      k.advance(1_000)
    }
    const mark = Number(k.ex.quote('BTC').mark)
    const done = k.ex.order(OWNER, o.clientOrderId)
    expect(done).toMatchObject({ state: 'filled', averagePrice: '99990' })
    expect(steps).toBeGreaterThan(0)
    expect(mark).toBeLessThanOrEqual(99_990)
    expect(k.ex.openOrders(OWNER)).toHaveLength(0)
    expect(k.ex.positions(OWNER)[0]?.size).toBe('0.05')
  })

  test('behavior: a pinned mark through a resting sell fills it', () => {
    const k = simTestKit({ venue: 'lighter' })
    const o = k.ex.place(
      OWNER,
      k.req({ side: 'short', price: '100100', timeInForce: 'gtc' }),
    )
    k.ex.setMark('BTC', '100099.9')
    expect(k.ex.order(OWNER, o.clientOrderId)?.state).toBe('open')
    k.ex.setMark('BTC', '100100')
    expect(k.ex.order(OWNER, o.clientOrderId)).toMatchObject({
      state: 'filled',
      venueStatus: 'filled',
    })
  })

  test('behavior: a crossing GTC takes, then rests the remainder (Aster)', () => {
    const k = simTestKit({ venue: 'aster' })
    const o = k.ex.place(
      OWNER,
      k.req({
        market: 'BTCUSDT',
        size: '0.3',
        price: '100005',
        timeInForce: 'gtc',
      }),
    )
    expect(o).toMatchObject({
      state: 'partially_filled',
      venueStatus: 'PARTIALLY_FILLED',
      filledBase: '0.2',
    })
  })

  test('behavior: every execution is listed as a fill; they add up to the order', () => {
    const k = simTestKit()
    const big = k.ex.place(OWNER, k.req({ size: '3', price: '101000' }))
    const fills = k.ex.fills(OWNER, 0)
    expect(fills.length).toBeGreaterThan(1)
    for (const f of fills) {
      expect(f).toMatchObject({
        market: 'BTC',
        side: 'long',
        clientOrderId: big.clientOrderId,
        venueOrderId: big.venueOrderId,
      })
    }
    let size = dec(0)
    let notional = dec(0)
    for (const f of fills) {
      size = size.add(f.size)
      notional = notional.add(dec(f.size).mul(f.price))
    }
    expect(decString(size)).toBe(big.filledBase)
    expect(notional.div(size).toDecimalPlaces(7).toFixed()).toBe(
      dec(big.averagePrice ?? 0)
        .toDecimalPlaces(7)
        .toFixed(),
    )
    expect(new Set(fills.map((f) => f.tradeId)).size).toBe(fills.length)
    expect(k.ex.fills(OWNER, k.now() + 1)).toEqual([])
  })

  test('error: post-only that would take liquidity is rejected', () => {
    const k = simTestKit()
    const { bid, ask } = k.ex.quote('BTC')
    const req = k.req({ price: ask, timeInForce: 'post_only' })
    expect(rejectReason(() => k.ex.place(OWNER, req))).toBe(
      `Post only order would have immediately matched, bbo was ${bid}@${ask}.`,
    )
    expect(k.ex.order(OWNER, req.clientOrderId)).toBeNull()
    const maker = k.ex.place(
      OWNER,
      k.req({ price: '100004', timeInForce: 'post_only' }),
    )
    expect(maker).toMatchObject({ state: 'open', filledBase: '0' })
    const aster = simTestKit({ venue: 'aster' })
    expect(
      rejectReason(() =>
        aster.ex.place(
          OWNER,
          aster.req({
            market: 'BTCUSDT',
            side: 'short',
            price: '99995',
            timeInForce: 'post_only',
          }),
        ),
      ),
    ).toMatch(/Post Only order will be rejected/)
  })
})

describe('reduce-only, netting, cancel', () => {
  test('behavior: reduce-only is capped to the position, rejected without one', () => {
    const k = simTestKit()
    const sell = k.req({ side: 'short', price: '99000', reduceOnly: true })
    expect(rejectReason(() => k.ex.place(OWNER, sell))).toBe(
      'Reduce only order would increase position.',
    )
    k.ex.place(OWNER, k.req({ size: '0.05' }))
    const buyMore = k.req({ reduceOnly: true })
    expect(rejectReason(() => k.ex.place(OWNER, buyMore))).toMatch(
      /Reduce only/,
    )
    const o = k.ex.place(
      OWNER,
      k.req({ side: 'short', size: '0.2', price: '99000', reduceOnly: true }),
    )
    expect(o).toMatchObject({
      size: '0.05',
      filledBase: '0.05',
      state: 'filled',
    })
    expect(k.ex.positions(OWNER)).toEqual([])
  })

  test('behavior: reduce-only under the minimum notional is accepted', () => {
    const k = simTestKit()
    k.ex.place(OWNER, k.req({ size: '0.0001' }))
    const o = k.ex.place(
      OWNER,
      k.req({
        side: 'short',
        size: '0.00005',
        price: '99000',
        reduceOnly: true,
      }),
    )
    expect(o.state).toBe('filled')
  })

  test('behavior: long then larger short nets, flips and realizes PnL', () => {
    const k = simTestKit()
    k.ex.place(OWNER, k.req({ size: '0.1' })) // 0.1 @ 100005
    k.ex.place(OWNER, k.req({ side: 'short', size: '0.3', price: '99000' }))
    // 0.2 @ 99995 (0.1 closes the long: -1 USD) then 0.1 @ 99990
    expect(k.ex.positions(OWNER)).toEqual([
      expect.objectContaining({ size: '-0.2', entryPrice: '99992.5' }),
    ])
    // taker fees at 0.045%: (10000.5 + 19999 + 9999) × 0.00045 = 17.999325
    expect(k.ex.account(OWNER).collateralUsd).toBe('99981.000675')
    k.ex.place(OWNER, k.req({ size: '0.2', price: '100100' }))
    expect(k.ex.positions(OWNER)).toEqual([])
  })

  test('behavior: cancel is idempotent and final orders stay final', () => {
    const k = simTestKit({ venue: 'aster' })
    const gtc = k.req({ market: 'BTCUSDT', price: '99000', timeInForce: 'gtc' })
    k.ex.place(OWNER, gtc)
    expect(k.ex.openOrders(OWNER)).toHaveLength(1)
    const c1 = k.ex.cancel(OWNER, gtc.clientOrderId)
    expect(c1).toMatchObject({ state: 'cancelled', venueStatus: 'CANCELED' })
    expect(k.ex.cancel(OWNER, gtc.clientOrderId)).toEqual(c1)
    expect(k.ex.openOrders(OWNER)).toEqual([])
    const ioc = k.req({ market: 'BTCUSDT' })
    k.ex.place(OWNER, ioc)
    expect(k.ex.cancel(OWNER, ioc.clientOrderId).state).toBe('filled')
    expect(rejectReason(() => k.ex.cancel(OWNER, 'nope'))).toBe(
      'Unknown order sent.',
    )
    expect(k.ex.order(OWNER, ioc.clientOrderId, 'ETHUSDT')).toBeNull()
  })
})

describe('checks', () => {
  test('error: precision, minimums and margin, in the venue words', () => {
    const hl = simTestKit()
    const cases: [Record<string, unknown>, string][] = [
      [{ price: '100000.5' }, 'Price must be divisible by tick size.'],
      [{ size: '0.000015' }, 'Order has invalid size.'],
      [{ size: '0' }, 'Order has invalid size.'],
      [{ size: 'abc' }, 'Order has invalid size.'],
      [{ size: '0.00005' }, 'Order must have minimum value of $10.'],
      [{ size: '20' }, 'Insufficient margin to place order.'],
      [{ market: 'DOGE' }, 'Asset not found.'],
    ]
    for (const [over, reason] of cases) {
      expect(rejectReason(() => hl.ex.place(OWNER, hl.req(over)))).toBe(reason)
    }
    const lighter = simTestKit({ venue: 'lighter' })
    expect(
      rejectReason(() =>
        lighter.ex.place(OWNER, lighter.req({ size: '0.0001' })),
      ),
    ).toBe('order base amount is below the minimum of 0.0002')
    const aster = simTestKit({ venue: 'aster' })
    expect(
      rejectReason(() =>
        aster.ex.place(
          OWNER,
          aster.req({ market: 'BTCUSDT', price: '100000.05' }),
        ),
      ),
    ).toBe('Price not increased by tick size.')
    expect(hl.ex.stats().placed).toBe(0)
    expect(hl.ex.stats().rejected).toBe(cases.length)
  })

  test('error: a duplicate clientOrderId never makes a second order', () => {
    const k = simTestKit()
    const first = k.req({
      clientOrderId: 'dup',
      price: '99000',
      timeInForce: 'gtc',
    })
    k.ex.place(OWNER, first)
    const again = { ...first, price: '101000', timeInForce: 'ioc' as const }
    expect(rejectReason(() => k.ex.place(OWNER, again))).toBe(
      'duplicate clientOrderId',
    )
    k.ex.faucet('0xother', 1_000)
    expect(rejectReason(() => k.ex.place('0xother', first))).toBe(
      'duplicate clientOrderId',
    )
    const stats = k.ex.stats()
    expect(stats.placed).toBe(1)
    expect(stats.byClientOrderId.get('dup')).toBe(1)
    expect(k.ex.order(OWNER, 'dup')?.state).toBe('open')
    expect(k.ex.order('0xother', 'dup')).toBeNull()
  })
})

describe('builder fee', () => {
  test('behavior: each fill also pays its notional times the rate, and a snapshot keeps it', () => {
    const k = simTestKit()
    k.ex.setMark('BTC', '100000')
    k.ex.place(OWNER, k.req({ clientOrderId: 'b1' }), '0.0001')
    const plain = simTestKit()
    plain.ex.setMark('BTC', '100000')
    plain.ex.place(OWNER, plain.req({ clientOrderId: 'b1' }))
    const fills = k.ex.fills(OWNER, 0)
    expect(fills.length).toBeGreaterThan(0)
    let paid = dec(0)
    for (const f of fills) {
      const owed = dec(f.price).mul(f.size).mul('0.0001').toDecimalPlaces(6)
      expect(f.builderFee).toBe(decString(owed))
      paid = paid.add(owed)
    }
    for (const f of plain.ex.fills(OWNER, 0)) {
      expect(f).not.toHaveProperty('builderFee')
    }
    expect(k.ex.account(OWNER).collateralUsd).toBe(
      decString(dec(plain.ex.account(OWNER).collateralUsd).sub(paid)),
    )
    // a resting order keeps its rate through a snapshot
    k.ex.place(
      OWNER,
      k.req({ clientOrderId: 'b2', price: '95000', timeInForce: 'gtc' }),
      '0.0001',
    )
    const saved = JSON.parse(JSON.stringify(k.ex.toSnapshot()))
    const again = createSimExchange({
      venue: 'hl',
      seed: 7,
      clock: { now: k.now },
      restore: saved,
    })
    expect(again.fills(OWNER, 0)).toEqual(fills)
    again.setMark('BTC', '90000')
    const later = again.fills(OWNER, 0).filter((f) => f.clientOrderId === 'b2')
    expect(later.length).toBeGreaterThan(0)
    for (const f of later) {
      expect(f.builderFee).toBe(
        decString(dec(f.price).mul(f.size).mul('0.0001').toDecimalPlaces(6)),
      )
    }
  })
})
