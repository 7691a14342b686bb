import type { Task } from '@dn/client'
import { describe, expect, test } from 'vitest'
import { statusView } from './statusView.js'

const AT = Date.UTC(2030, 0, 1, 12)

function task(over: Partial<Task>): Task {
  return {
    taskId: '00000000-0000-4000-8000-000000000001',
    longVenue: 'hl',
    longMarket: 'BTC',
    shortVenue: 'aster',
    shortMarket: 'BTCUSDT',
    sizeUsd: '1000',
    status: 'running',
    longSize: '0.01',
    shortSize: '0.01',
    longPrice: '100000',
    shortPrice: '100010',
    fundingUsd: '0',
    fundingApyNow: '10',
    error: null,
    closeReason: null,
    createdAt: new Date(AT - 60_000).toISOString(),
    updatedAt: new Date(AT - 1_000).toISOString(),
    closeRequestedAt: null,
    ...over,
  } as Task
}

const view = (over: {
  running?: Task[]
  closing?: Task[]
  ended?: Task[]
  holders?: number
}) =>
  statusView({
    url: 'http://127.0.0.1:8080',
    profile: 'default',
    at: AT,
    running: over.running ?? [],
    pending: [],
    closing: over.closing ?? [],
    ended: over.ended ?? [],
    open: [],
    unknown: [],
    liquidation: new Map([
      ['hl|BTC', { liq: '50000', holders: over.holders ?? 1 }],
      ['aster|BTCUSDT', { liq: null, holders: 1 }],
    ]),
  })

describe('statusView', () => {
  test('a leg whose venue position other holders share says so', () => {
    expect(view({ running: [task({})], holders: 2 })).toMatch(
      /hl:BTC 0\.01 shared\s+aster:BTCUSDT 0\.01\s/,
    )
    expect(view({ running: [task({})] })).not.toMatch(/shared/)
  })

  test('a task whose position changed outside dn needs attention, with the change', () => {
    const change =
      "aster BTCUSDT holds 0 where dn's orders account for 0.01 (-0.01 unexplained); the short leg holds 0 of its 0.01"
    const screen = view({
      ended: [
        task({
          status: 'closed',
          closeReason: 'leg_liquidated',
          error: `external change: ${change}`,
        }),
      ],
    })
    expect(screen).toContain('NEEDS ATTENTION: external changes (1)')
    expect(screen).toContain(change.slice(0, 40))
    expect(view({ ended: [task({ status: 'closed' })] })).not.toContain(
      'external changes',
    )
  })

  test('a closing task shows its error (a stopped close says what to do)', () => {
    const screen = view({
      closing: [
        task({
          status: 'closing',
          closeReason: 'requested',
          error: 'close stopped: the venue refused it 5 times in a row',
        }),
      ],
    })
    expect(screen).toMatch(
      /CLOSING TASKS \(1\)[\s\S]*ERROR[\s\S]*close stopped/,
    )
  })
})
