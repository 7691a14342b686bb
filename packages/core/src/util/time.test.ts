import { describe, expect, test } from 'vitest'
import { isoToMicros, microsToIso } from './time.js'

describe('time', () => {
  test('default: keeps six fractional digits exactly', () => {
    expect(
      isoToMicros('2026-01-02T03:04:05.123456Z') -
        isoToMicros('2026-01-02T03:04:05.123Z'),
    ).toBe(456n)
    expect(isoToMicros('1970-01-01T00:00:00.000001Z')).toBe(1n)
  })

  test('behavior: round-trips millisecond timestamps', () => {
    const iso = '2026-11-23T10:20:30.456Z'
    expect(microsToIso(isoToMicros(iso))).toBe(iso)
  })

  test('error: rejects non-UTC or malformed timestamps', () => {
    expect(() => isoToMicros('2026-01-02T03:04:05+01:00')).toThrow(RangeError)
    expect(() => isoToMicros('yesterday')).toThrow(RangeError)
  })
})
