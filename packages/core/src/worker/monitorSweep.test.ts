import { describe, expect, test } from 'vitest'
import { positionsMaxAgeMs } from './monitorSweep.js'
import { POSITIONS_MAX_AGE_MS } from './taskPhases.js'

describe('positionsMaxAgeMs', () => {
  test('the 10 s default while every account fits in the budget that often', () => {
    expect(positionsMaxAgeMs(1, 225)).toBe(POSITIONS_MAX_AGE_MS)
    expect(positionsMaxAgeMs(37, 225)).toBe(POSITIONS_MAX_AGE_MS)
  })

  test('longer once the accounts would spend more than the budget allows', () => {
    // Hyperliquid at half its 1,200 weight, routine ceiling 0.75, weight 2
    expect(positionsMaxAgeMs(100, 225)).toBe(26_667)
    // Aster at half its 2,400 weight, routine ceiling 0.75, weight 5
    expect(positionsMaxAgeMs(100, 180)).toBe(33_334)
    expect(positionsMaxAgeMs(1_000, 180)).toBe(333_334)
  })

  test('no per-IP budget to keep: the default', () => {
    expect(positionsMaxAgeMs(10_000, undefined)).toBe(POSITIONS_MAX_AGE_MS)
    expect(positionsMaxAgeMs(10_000, 0)).toBe(POSITIONS_MAX_AGE_MS)
  })
})
