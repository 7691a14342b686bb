import { expect, test } from 'vitest'
import {
  SETTLE_FIRST_RETRY_MS,
  SETTLE_GIVE_UP_MS,
  SETTLE_MAX_RETRY_MS,
  settleRetryAt,
} from './settleRetryAt.js'

const CLOSED = Date.UTC(2030, 0, 1, 12)

test('default: the first retry comes SETTLE_FIRST_RETRY_MS after the close', () => {
  expect(settleRetryAt(CLOSED, 1, CLOSED)).toBe(CLOSED + SETTLE_FIRST_RETRY_MS)
})

test('behavior: the wait doubles each failed try, up to SETTLE_MAX_RETRY_MS', () => {
  const now = CLOSED + 60_000
  const waits = [1, 2, 3, 4, 9, 10, 11, 200].map(
    (tries) => (settleRetryAt(CLOSED, tries, now) as number) - now,
  )
  expect(waits).toEqual([
    10_000,
    20_000,
    40_000,
    80_000,
    2_560_000,
    SETTLE_MAX_RETRY_MS,
    SETTLE_MAX_RETRY_MS,
    SETTLE_MAX_RETRY_MS,
  ])
})

test('behavior: the last try falls at the bound after the close', () => {
  const last = CLOSED + SETTLE_GIVE_UP_MS
  expect(settleRetryAt(CLOSED, 50, last - 60_000)).toBe(last)
  expect(settleRetryAt(CLOSED, 50, last - 1)).toBe(last)
})

test('behavior: a try that fails at or past the bound is the last', () => {
  const last = CLOSED + SETTLE_GIVE_UP_MS
  expect(settleRetryAt(CLOSED, 170, last)).toBeNull()
  expect(settleRetryAt(CLOSED, 170, last + 3_600_000)).toBeNull()
  expect(SETTLE_GIVE_UP_MS).toBe(7 * 86_400_000)
})
