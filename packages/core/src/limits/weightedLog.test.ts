import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import {
  type LogEntry,
  pruneLog,
  usedWeight,
  waitToFit,
} from './weightedLog.js'

const W = 1_000

describe('pruneLog', () => {
  test('default: keeps only entries strictly after the window start', () => {
    const entries: LogEntry[] = [
      { at: 0, weight: 1 },
      { at: 500, weight: 2 },
      { at: 501, weight: 3 },
      { at: 1_500, weight: 4 },
    ]
    // window (500, 1500]: the entry at exactly 500 is out
    expect(pruneLog(entries, 1_500, W)).toEqual([
      { at: 501, weight: 3 },
      { at: 1_500, weight: 4 },
    ])
  })

  test('behavior: does not mutate the input and keeps order', () => {
    const entries: LogEntry[] = [
      { at: 900, weight: 1 },
      { at: 100, weight: 2 },
      { at: 950, weight: 3 },
    ]
    const copy = entries.map((e) => ({ ...e }))
    const out = pruneLog(entries, 1_150, W)
    expect(entries).toEqual(copy)
    expect(out).toEqual([
      { at: 900, weight: 1 },
      { at: 950, weight: 3 },
    ])
    expect(out).not.toBe(entries)
  })

  test('edge: an empty log stays empty', () => {
    expect(pruneLog([], 10, W)).toEqual([])
  })

  test('property: pruned log weighs what usedWeight counts', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            at: fc.integer({ min: 0, max: 5_000 }),
            weight: fc.integer({ min: 0, max: 50 }),
          }),
        ),
        fc.integer({ min: 0, max: 6_000 }),
        fc.integer({ min: 1, max: 3_000 }),
        (entries, now, windowMs) => {
          const kept = pruneLog(entries, now, windowMs)
          const sum = kept.reduce((s, e) => s + e.weight, 0)
          expect(sum).toBe(usedWeight(entries, now, windowMs))
          for (const e of kept) expect(e.at).toBeGreaterThan(now - windowMs)
          expect(
            entries.filter((e) => e.at <= now - windowMs).length + kept.length,
          ).toBe(entries.length)
        },
      ),
    )
  })
})

describe('usedWeight', () => {
  test('default: sums the weights inside (now - window, now]', () => {
    const entries: LogEntry[] = [
      { at: 0, weight: 10 },
      { at: 200, weight: 5 },
      { at: 900, weight: 7 },
    ]
    expect(usedWeight(entries, 900, W)).toBe(22)
    expect(usedWeight(entries, 999, W)).toBe(22)
    // at 1000 the entry at 0 is exactly at the window start: out
    expect(usedWeight(entries, 1_000, W)).toBe(12)
    expect(usedWeight(entries, 1_200, W)).toBe(7)
    expect(usedWeight(entries, 1_900, W)).toBe(0)
  })

  test('edge: empty log weighs nothing', () => {
    expect(usedWeight([], 123, W)).toBe(0)
  })
})

describe('waitToFit', () => {
  test('default: 0 when the weight fits now', () => {
    const entries: LogEntry[] = [{ at: 500, weight: 40 }]
    expect(waitToFit(entries, 600, W, 50, 10)).toBe(0)
    expect(waitToFit([], 600, W, 50, 50)).toBe(0)
  })

  test('default: waits until enough of the oldest entries leave', () => {
    const entries: LogEntry[] = [
      { at: 300, weight: 20 },
      { at: 100, weight: 20 },
      { at: 700, weight: 10 },
    ]
    // used 50 at 800; 15 more needs 15 out: the entry at 100 leaves at 1100
    expect(waitToFit(entries, 800, W, 50, 15)).toBe(300)
    // 25 more needs 25 out: both 20s, the second leaves at 1300
    expect(waitToFit(entries, 800, W, 50, 25)).toBe(500)
    // 50 more needs all out: the last leaves at 1700
    expect(waitToFit(entries, 800, W, 50, 50)).toBe(900)
  })

  test('edge: entries sharing a time leave together', () => {
    const entries: LogEntry[] = [
      { at: 100, weight: 5 },
      { at: 100, weight: 5 },
      { at: 400, weight: 5 },
    ]
    expect(waitToFit(entries, 500, W, 15, 10)).toBe(600)
  })

  test('edge: entries already outside the window are ignored', () => {
    const entries: LogEntry[] = [
      { at: 0, weight: 1_000 },
      { at: 1_500, weight: 10 },
    ]
    expect(waitToFit(entries, 2_000, W, 10, 5)).toBe(500)
    expect(waitToFit(entries, 2_000, W, 15, 5)).toBe(0)
  })

  test('error: Infinity when the weight is heavier than the ceiling', () => {
    expect(waitToFit([], 0, W, 10, 11)).toBe(Number.POSITIVE_INFINITY)
    expect(waitToFit([{ at: 0, weight: 1 }], 0, W, 0, 1)).toBe(
      Number.POSITIVE_INFINITY,
    )
  })

  test('edge: ceiling 0 and weight 0 waits for the log to empty', () => {
    expect(waitToFit([], 0, W, 0, 0)).toBe(0)
    expect(waitToFit([{ at: 100, weight: 1 }], 200, W, 0, 0)).toBe(900)
  })

  test('property: at now+w the weight fits and at now+w-1 it does not', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            at: fc.integer({ min: 0, max: 10_000 }),
            weight: fc.integer({ min: 0, max: 40 }),
          }),
          { maxLength: 30 },
        ),
        fc.integer({ min: 0, max: 12_000 }),
        fc.integer({ min: 1, max: 5_000 }),
        fc.integer({ min: 0, max: 200 }),
        fc.integer({ min: 0, max: 220 }),
        (all, now, windowMs, ceiling, weight) => {
          // the log holds what was sent up to now
          const entries = all.filter((e) => e.at <= now)
          const w = waitToFit(entries, now, windowMs, ceiling, weight)
          if (weight > ceiling) {
            expect(w).toBe(Number.POSITIVE_INFINITY)
            return
          }
          expect(Number.isFinite(w)).toBe(true)
          expect(w).toBeGreaterThanOrEqual(0)
          expect(Number.isInteger(w)).toBe(true)
          expect(w).toBeLessThanOrEqual(windowMs)
          expect(
            usedWeight(entries, now + w, windowMs) + weight,
          ).toBeLessThanOrEqual(ceiling)
          if (w > 0) {
            expect(
              usedWeight(entries, now + w - 1, windowMs) + weight,
            ).toBeGreaterThan(ceiling)
          }
        },
      ),
      { numRuns: 500 },
    )
  })
})
