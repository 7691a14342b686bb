import { describe, expect, test } from 'vitest'
import { belowVenueMinimum, orderMinimumUsd } from './orderMinimum.js'

const rules = { minBase: '0.0002', minNotionalUsd: '5' }

describe('orderMinimum', () => {
  test("orderMinimumUsd: the venue's minimum, never below dn's USD 10", () => {
    expect(orderMinimumUsd({ minNotionalUsd: '5' })).toBe('10')
    expect(orderMinimumUsd({ minNotionalUsd: '20' })).toBe('20')
  })

  test("belowVenueMinimum: below the venue's base or notional minimum, dn's floor aside", () => {
    expect(belowVenueMinimum(rules, '0.0001', '100000')).toBe(true)
    expect(belowVenueMinimum(rules, '0.0002', '20000')).toBe(true)
    expect(belowVenueMinimum(rules, '0.0002', '25000')).toBe(false)
    // USD 8: under dn's floor, a close the venue still takes
    expect(belowVenueMinimum(rules, '0.0002', '40000')).toBe(false)
  })
})
