import { describe, expect, test } from 'vitest'
import { parseAsterOrderFees } from './asterOrderFees.js'

const trade = (over: Record<string, unknown> = {}) => ({
  orderId: 7,
  qty: '0.5',
  commission: '0.0175',
  commissionAsset: 'USDT',
  ...over,
})

describe('parseAsterOrderFees', () => {
  test("default: the order's commissions add up once its fills are all listed", () => {
    const raw = [trade(), trade({ qty: '0.25', commission: '0.00875' })]
    expect(parseAsterOrderFees(raw, '7', '0.75')).toBe('0.02625')
  })

  test("other orders' trades are not counted", () => {
    const raw = [trade(), trade({ orderId: 8, commission: '9' })]
    expect(parseAsterOrderFees(raw, '7', '0.5')).toBe('0.0175')
  })

  test('a fill not listed yet, or a fee in another asset: not known', () => {
    expect(parseAsterOrderFees([trade()], '7', '1')).toBeNull()
    expect(
      parseAsterOrderFees([trade({ commissionAsset: 'ASTER' })], '7', '0.5'),
    ).toBeNull()
  })

  test('not a trade list: undefined', () => {
    expect(parseAsterOrderFees({ code: -1 }, '7', '1')).toBeUndefined()
    expect(
      parseAsterOrderFees([trade({ commission: 'x' })], '7', '0.5'),
    ).toBeUndefined()
  })
})
