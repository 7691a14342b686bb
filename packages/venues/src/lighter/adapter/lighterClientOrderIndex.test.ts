import { describe, expect, test } from 'vitest'
import { lighterClientOrderIndex } from './lighterClientOrderIndex.js'

describe('lighterClientOrderIndex', () => {
  test('default: (id mod (2^48 - 1)) + 1, deterministic', () => {
    expect(lighterClientOrderIndex(`0x${'00'.repeat(16)}`)).toBe(1)
    const id = `0x${'ab'.repeat(16)}`
    const expected = Number((BigInt(id) % (2n ** 48n - 1n)) + 1n)
    expect(lighterClientOrderIndex(id)).toBe(expected)
    expect(lighterClientOrderIndex(id.toUpperCase().replace('0X', '0x'))).toBe(
      expected,
    )
  })

  test('behavior: always within 1..2^48-1', () => {
    for (const id of [
      `0x${'ff'.repeat(16)}`,
      `0x${'00'.repeat(10)}ffffffffffff`,
    ]) {
      const coi = lighterClientOrderIndex(id)
      expect(coi).toBeGreaterThanOrEqual(1)
      expect(coi).toBeLessThanOrEqual(2 ** 48 - 1)
    }
    // 2^48 - 1 itself wraps to 0, then + 1
    expect(lighterClientOrderIndex(`0x${'00'.repeat(10)}ffffffffffff`)).toBe(1)
  })

  test('error: not 0x + 32 hex', () => {
    expect(() => lighterClientOrderIndex('0x1234')).toThrow(RangeError)
    expect(() => lighterClientOrderIndex('abc')).toThrow(RangeError)
  })
})
