import { describe, expect, test } from 'vitest'
import { createRateLimitBackoff } from './rateLimitBackoff.js'

describe('rateLimitBackoff', () => {
  test('behavior: a lone refusal holds the first hold; refusals in a row double it up to the full hold', () => {
    const b = createRateLimitBackoff(2_000)
    const holds = [1, 2, 3, 4, 5].map(() => b.refused(b.sending(), 10_000))
    expect(holds).toEqual([2_000, 4_000, 8_000, 10_000, 10_000])
  })

  test('behavior: an answer to a request sent after the last refusal starts over', () => {
    const b = createRateLimitBackoff(2_000)
    b.refused(b.sending(), 10_000)
    expect(b.refused(b.sending(), 10_000)).toBe(4_000)
    b.answered(b.sending())
    expect(b.refused(b.sending(), 10_000)).toBe(2_000)
  })

  test('behavior: requests sent before a refusal came are its burst: they neither lengthen the hold nor end the streak', () => {
    const b = createRateLimitBackoff(2_000)
    const [x, y, z] = [b.sending(), b.sending(), b.sending()]
    expect(b.refused(x, 10_000)).toBe(2_000)
    expect(b.refused(y, 10_000)).toBe(2_000)
    b.answered(z)
    // sent after it, refused again: the venue is still over its limit
    expect(b.refused(b.sending(), 10_000)).toBe(4_000)
  })

  test('boundary: a first hold above the venue full hold is cut to it', () => {
    const b = createRateLimitBackoff(5_000)
    expect(b.refused(b.sending(), 1_000)).toBe(1_000)
  })
})
