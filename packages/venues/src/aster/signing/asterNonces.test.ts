import { describe, expect, test } from 'vitest'
import { createAsterNonces } from './asterNonces.js'

describe('createAsterNonces', () => {
  test('default: microseconds of the clock', () => {
    const nonces = createAsterNonces({ now: () => 1_700_000_000_123 })
    expect(nonces.next('0xA')).toBe(1_700_000_000_123_000)
  })

  test('behavior: strictly increasing per signer within one millisecond', () => {
    let now = 1_000
    const nonces = createAsterNonces({ now: () => now })
    expect([
      nonces.next('0xA'),
      nonces.next('0xa'),
      nonces.next('0xA'),
    ]).toEqual([1_000_000, 1_000_001, 1_000_002])
    // another signer starts from the clock
    expect(nonces.next('0xB')).toBe(1_000_000)
    // a clock stepping back never repeats a nonce
    now = 999
    expect(nonces.next('0xA')).toBe(1_000_003)
    now = 2_000
    expect(nonces.next('0xA')).toBe(2_000_000)
  })

  test('error: a fractional clock is refused', () => {
    expect(() => createAsterNonces({ now: () => 1.0000001 }).next('x')).toThrow(
      RangeError,
    )
  })
})
