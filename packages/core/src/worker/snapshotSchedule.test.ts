import { describe, expect, test } from 'vitest'
import type { BoundAccount } from '../domain/accountSnapshot.js'
import type { VenuePosition } from '../ports/venueAdapter.js'
import {
  accountKey,
  dueIdleAccounts,
  IDLE_READS_PER_TICK,
  idleReadsPerTick,
  positionsFingerprint,
  refreshAgeMs,
  SNAPSHOT_REFRESH_MS,
  snapshotWriteDue,
} from './snapshotSchedule.js'

const NOW = Date.UTC(2030, 0, 1)
const iso = (ms: number) => new Date(ms).toISOString()
const pos = (over: Partial<VenuePosition> = {}): VenuePosition => ({
  market: 'ETH',
  size: '1',
  entryPrice: '3000',
  markPrice: '3001',
  leverage: '3',
  marginMode: 'cross',
  liquidationPrice: '2000',
  ...over,
})

describe('refreshAgeMs', () => {
  test('1 to 1.05 times the period, fixed per account', () => {
    const ages = Array.from({ length: 200 }, (_, i) =>
      refreshAgeMs(`0x${i}|hl|`, 60_000),
    )
    for (const a of ages) {
      expect(a).toBeGreaterThanOrEqual(60_000)
      expect(a).toBeLessThanOrEqual(63_000)
    }
    // spread, not one instant for all
    expect(new Set(ages).size).toBeGreaterThan(100)
    expect(refreshAgeMs('0x1|hl|', 60_000)).toBe(
      refreshAgeMs('0x1|hl|', 60_000),
    )
  })
})

describe('snapshotWriteDue', () => {
  const fp = positionsFingerprint([pos()])
  test('nothing stored: written', () => {
    expect(snapshotWriteDue(undefined, fp, NOW, 60_000)).toBe(true)
  })
  test('a mark that moved is no change; the refresh writes it', () => {
    const moved = positionsFingerprint([pos({ markPrice: '3100' })])
    expect(moved).toBe(fp)
    const stored = { fingerprint: fp, readAt: NOW }
    expect(snapshotWriteDue(stored, moved, NOW + 10_000, 60_000)).toBe(false)
    expect(snapshotWriteDue(stored, moved, NOW + 29_999, 60_000)).toBe(false)
    expect(snapshotWriteDue(stored, moved, NOW + 30_000, 60_000)).toBe(true)
  })
  test('a size, entry, leverage, mode or liquidation change is written at once', () => {
    const stored = { fingerprint: fp, readAt: NOW }
    for (const over of [
      { size: '2' },
      { entryPrice: '2990' },
      { leverage: '5' },
      { marginMode: 'isolated' as const },
      { liquidationPrice: null },
    ]) {
      const changed = positionsFingerprint([pos(over)])
      expect(snapshotWriteDue(stored, changed, NOW + 1, 60_000)).toBe(true)
    }
    expect(snapshotWriteDue(stored, '', NOW + 1, 60_000)).toBe(true)
  })
  test('a read older than the stored one never is', () => {
    const stored = { fingerprint: fp, readAt: NOW }
    expect(snapshotWriteDue(stored, '', NOW - 5, 60_000)).toBe(false)
  })
  test('the same read amended by our own fill is written; unchanged, not', () => {
    const stored = { fingerprint: fp, readAt: NOW }
    const filled = positionsFingerprint([pos({ size: '2' })])
    expect(snapshotWriteDue(stored, filled, NOW, 60_000)).toBe(true)
    expect(snapshotWriteDue(stored, fp, NOW, 60_000)).toBe(false)
  })
  test('positions in any order show the same', () => {
    const a = pos()
    const b = pos({ market: 'BTC' })
    expect(positionsFingerprint([a, b])).toBe(positionsFingerprint([b, a]))
  })
})

describe('idleReadsPerTick', () => {
  test('a quarter of the routine reads a minute, over the tick; at least one', () => {
    // Hyperliquid at the default share: 218 routine reads a minute
    expect(idleReadsPerTick(218, 2_000)).toBe(1)
    expect(idleReadsPerTick(218, 10_000)).toBe(9)
    expect(idleReadsPerTick(1, 2_000)).toBe(1)
  })
  test('reads counted per account (Lighter): a fixed number', () => {
    expect(idleReadsPerTick(undefined, 2_000)).toBe(IDLE_READS_PER_TICK)
    expect(idleReadsPerTick(0, 2_000)).toBe(IDLE_READS_PER_TICK)
  })
})

describe('dueIdleAccounts', () => {
  const account = (
    owner: string,
    venue: BoundAccount['venue'],
    readAt: number | null,
  ): BoundAccount => ({
    owner,
    venue,
    accountIndex: null,
    readAt: readAt === null ? null : iso(readAt),
  })
  const R = SNAPSHOT_REFRESH_MS
  const base = {
    now: NOW,
    refreshMs: R,
    active: () => false,
    lastRead: () => undefined,
    allowance: () => 10,
  }

  test('never read or past the refresh age: due, oldest first; younger ones wait', () => {
    const accounts = [
      account('0xa', 'hl', NOW - R * 2),
      account('0xb', 'hl', null),
      account('0xc', 'hl', NOW - 1_000),
      account('0xd', 'hl', NOW - R * 3),
    ]
    expect(dueIdleAccounts(accounts, base).map((a) => a.owner)).toEqual([
      '0xb',
      '0xd',
      '0xa',
    ])
  })

  test('an account the sweep reads is not idle', () => {
    const accounts = [account('0xa', 'hl', null), account('0xb', 'hl', null)]
    const active = (key: string) => key === accountKey('0xa', 'hl', null)
    expect(
      dueIdleAccounts(accounts, { ...base, active }).map((a) => a.owner),
    ).toEqual(['0xb'])
  })

  test("this worker's own later read (or try) counts as the last one", () => {
    const accounts = [account('0xa', 'hl', NOW - R * 2)]
    expect(
      dueIdleAccounts(accounts, { ...base, lastRead: () => NOW - 5_000 }),
    ).toEqual([])
  })

  test("at most each venue's allowance a tick, the rest next tick", () => {
    const accounts = [
      ...['1', '2', '3'].map((o) => account(`0x${o}`, 'hl', null)),
      ...['4', '5', '6'].map((o) => account(`0x${o}`, 'lighter', null)),
    ]
    const due = dueIdleAccounts(accounts, {
      ...base,
      allowance: (v) => (v === 'hl' ? 1 : 2),
    })
    expect(due.map((a) => `${a.venue}:${a.owner}`)).toEqual([
      'hl:0x1',
      'lighter:0x4',
      'lighter:0x5',
    ])
  })
})
