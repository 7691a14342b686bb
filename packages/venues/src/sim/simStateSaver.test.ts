import { afterEach, expect, test, vi } from 'vitest'
import { startSimStateSaver } from './simStateSaver.js'

afterEach(() => {
  vi.useRealTimers()
})

test('behavior: saves within a tick of a change, not while idle, and every refresh anyway', () => {
  vi.useFakeTimers()
  let version = 0
  let saves = 0
  const saver = startSimStateSaver({
    save: () => {
      saves += 1
    },
    version: () => version,
    refreshMs: 10_000,
    onError: (err) => {
      throw err
    },
    now: () => Date.now(),
  })
  vi.advanceTimersByTime(5_000)
  expect(saves).toBe(0)
  version += 3
  vi.advanceTimersByTime(1_000)
  expect(saves).toBe(1)
  vi.advanceTimersByTime(8_000)
  expect(saves).toBe(1)
  vi.advanceTimersByTime(2_000)
  expect(saves).toBe(2)
  saver.saveNow()
  expect(saves).toBe(3)
  saver.stop()
  version += 1
  vi.advanceTimersByTime(60_000)
  expect(saves).toBe(3)
})

test('error: a failed save is reported and tried again on the next tick', () => {
  vi.useFakeTimers()
  let fail = true
  let saves = 0
  const errors: unknown[] = []
  let version = 1
  const saver = startSimStateSaver({
    save: () => {
      if (fail) throw new Error('disk full')
      saves += 1
    },
    version: () => version,
    onError: (err) => errors.push(err),
  })
  version += 1
  vi.advanceTimersByTime(1_000)
  expect(errors).toHaveLength(1)
  fail = false
  vi.advanceTimersByTime(1_000)
  expect(saves).toBe(1)
  saver.stop()
})

test('behavior: flush saves the changes so far once for all who wait in one turn, and not when nothing changed', async () => {
  let version = 0
  let saves = 0
  const saver = startSimStateSaver({
    save: () => {
      saves += 1
    },
    version: () => version,
    onError: () => {},
  })
  await saver.flush()
  expect(saves).toBe(0)
  version += 1
  const a = saver.flush()
  version += 1
  const b = saver.flush()
  await Promise.all([a, b])
  expect(saves).toBe(1)
  await saver.flush()
  expect(saves).toBe(1)
  saver.stop()
})

test('error: a flush whose save fails rejects, and the next one saves again', async () => {
  let version = 1
  let fail = true
  let saves = 0
  const errors: unknown[] = []
  const saver = startSimStateSaver({
    save: () => {
      if (fail) throw new Error('disk full')
      saves += 1
    },
    version: () => version,
    onError: (err) => errors.push(err),
  })
  version += 1
  await expect(saver.flush()).rejects.toThrow('disk full')
  expect(errors).toHaveLength(1)
  fail = false
  await saver.flush()
  expect(saves).toBe(1)
  saver.stop()
})
