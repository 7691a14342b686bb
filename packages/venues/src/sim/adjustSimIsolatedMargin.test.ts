import { dec } from '@dn/core'
import { expect, test } from 'vitest'
import { OWNER, rejectReason, simTestKit } from './simTestKit.js'

test('behavior: margin moves between the cross pool and an isolated position', () => {
  const k = simTestKit()
  expect(k.ex.leverage(OWNER, 'BTC')).toEqual({
    leverage: 10,
    marginMode: 'cross',
  })
  k.ex.setLeverage(OWNER, 'BTC', 5, 'isolated')
  expect(k.ex.leverage(OWNER, 'BTC')).toEqual({
    leverage: 5,
    marginMode: 'isolated',
  })
  expect(rejectReason(() => k.ex.adjustIsolatedMargin(OWNER, 'BTC', 10))).toBe(
    'No isolated position to update margin for.',
  )
  k.ex.place(OWNER, k.req())
  const before = dec(k.ex.account(OWNER).crossEquityUsd)
  const liqBefore = k.ex.positions(OWNER)[0]?.liquidationPrice
  k.ex.adjustIsolatedMargin(OWNER, 'BTC', 200)
  expect(before.sub(k.ex.account(OWNER).crossEquityUsd).toString()).toBe('200')
  // more margin: the long's liquidation price moves down
  const liqAfter = k.ex.positions(OWNER)[0]?.liquidationPrice
  expect(Number(liqAfter)).toBeLessThan(Number(liqBefore))
  k.ex.adjustIsolatedMargin(OWNER, 'BTC', -200)
  expect(k.ex.account(OWNER).crossEquityUsd).toBe(before.toString())
  expect(rejectReason(() => k.ex.adjustIsolatedMargin(OWNER, 'BTC', -1))).toBe(
    'Cannot remove that much margin.',
  )
  expect(
    rejectReason(() => k.ex.adjustIsolatedMargin(OWNER, 'BTC', 1_000_000)),
  ).toBe('Insufficient margin to add.')
})
