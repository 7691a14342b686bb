import { describe, expect, test } from 'vitest'
import type { TaskRecord } from './task.js'
import { taskPnl } from './taskPnl.js'

const base = {
  longSize: '0',
  shortSize: '0',
  longEntry: '100',
  shortEntry: '101',
  longPrice: '120',
  shortPrice: '121',
  fundingUsd: '1.5',
  engineState: null,
} as const
const pnl = (over: Partial<TaskRecord>) =>
  taskPnl({ ...base, ...over } as TaskRecord)

describe('taskPnl', () => {
  test('default: nothing filled yet shows zeros and no prices', () => {
    const p = pnl({ longEntry: null, shortEntry: null, fundingUsd: '0' })
    expect(p.long).toEqual({
      realizedUsd: '0',
      unrealizedUsd: '0',
      feesUsd: '0',
      builderFeesUsd: '0',
      entryPrice: null,
      exitPrice: null,
    })
    expect(p.totalUsd).toBe('0')
  })

  test('a running task: unrealized from the latest marks, per direction', () => {
    const p = pnl({ longSize: '2', shortSize: '2' })
    // long (120 − 100) × 2 = 40; short (101 − 121) × 2 = −40
    expect(p.long.unrealizedUsd).toBe('40')
    expect(p.short.unrealizedUsd).toBe('-40')
    expect(p.unrealizedUsd).toBe('0')
    expect(p.totalUsd).toBe('1.5')
  })

  test('a closed task keeps entry and exit; total = realized + funding − fees', () => {
    const p = pnl({
      engineState: {
        op: null,
        seq: 2,
        fundingSince: null,
        fundingBelowSince: null,
        books: {
          long: {
            openBase: '2',
            openNotional: '200',
            closeBase: '2',
            closeNotional: '220',
            realizedUsd: '20',
            builderFeesUsd: '0.126',
            venueFeesUsd: '0.189',
            venueFeesUnknown: false,
          },
          short: {
            openBase: '2',
            openNotional: '202',
            closeBase: '2',
            closeNotional: '221',
            realizedUsd: '-19',
            builderFeesUsd: '0',
          },
        },
      },
    })
    expect(p.long).toMatchObject({
      entryPrice: '100',
      exitPrice: '110',
      feesUsd: '0.189',
    })
    // booked before venue fees were: not known, and not counted
    expect(p.short).toMatchObject({
      entryPrice: '101',
      exitPrice: '110.5',
      feesUsd: null,
    })
    expect(p).toMatchObject({
      realizedUsd: '1',
      unrealizedUsd: '0',
      fundingUsd: '1.5',
      // builder 0.126 + venue 0.189
      feesUsd: '0.315',
      // 1 + 0 + 1.5 − 0.315
      totalUsd: '2.185',
    })
  })
})
