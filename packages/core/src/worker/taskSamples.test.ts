import { describe, expect, test } from 'vitest'
import type { Leg } from '../domain/taskEngineState.js'
import type { TaskSampleRecord } from '../domain/taskSample.js'
import type { MarketQuote } from '../ports/marketData.js'
import { task } from '../ports/store.contract.js'
import type { VenuePosition } from '../ports/venueAdapter.js'
import { evaluateRunningTask, type LegReading } from './evaluateRunningTask.js'
import { createSweepSampler } from './taskSamples.js'
import type { WorkerDeps } from './workerDeps.js'

const NOW = Date.UTC(2030, 5, 1, 12)

function reading(leg: Leg, liq: string | null): LegReading {
  const quote: MarketQuote = {
    venue: leg === 'long' ? 'hl' : 'aster',
    symbol: leg === 'long' ? 'BTC' : 'BTCUSDT',
    mark: leg === 'long' ? '110' : '108',
    bid: '99.9',
    ask: '100.1',
    fundingRateHourly: leg === 'long' ? '0' : '0.0001',
  }
  const position: VenuePosition = {
    market: quote.symbol,
    size: leg === 'long' ? '2' : '-2',
    entryPrice: '100',
    markPrice: quote.mark,
    leverage: '3',
    marginMode: 'cross',
    liquidationPrice: liq,
  }
  return { quote, position }
}

const running = task({
  status: 'running',
  longSize: '2',
  shortSize: '2',
  longEntry: '100',
  shortEntry: '100',
  fundingUsd: '1.5',
  engineState: null,
})
const legs = { long: reading('long', '77'), short: reading('short', null) }
const verdict = evaluateRunningTask(running, legs, NOW, 3_600_000)

/** Worker deps holding only what the sampler uses. */
function deps(add: (s: readonly TaskSampleRecord[]) => Promise<number>) {
  const errors: string[] = []
  const d = {
    workerId: 'w',
    taskSampleMs: 60_000,
    logger: { info: () => {}, error: (m: string) => errors.push(m) },
    store: { taskSamples: { add, list: async () => [] } },
  } as unknown as WorkerDeps
  return { d, errors }
}

describe('createSweepSampler', () => {
  test('default: a sample of PnL at the marks read, funding, APY and liquidation distances', async () => {
    const stored: TaskSampleRecord[] = []
    const { d } = deps(async (s) => stored.push(...s))
    const sampler = createSweepSampler(d)
    sampler.offer(running, legs, verdict, NOW)
    await sampler.flush()
    expect(stored).toEqual([
      {
        taskId: running.id,
        at: new Date(NOW).toISOString(),
        fundingUsd: '1.5',
        // long +20 at 110, short −16 at 108, funding 1.5
        pnlTotalUsd: '5.5',
        unrealizedUsd: '4',
        feesUsd: '0',
        fundingApy: '87.6',
        longPrice: '110',
        shortPrice: '108',
        // |110 − 77| / 110
        longLiqDistancePct: '30',
        shortLiqDistancePct: null,
      },
    ])
  })

  test('behavior: once a slot per task, again in the next slot', async () => {
    const stored: TaskSampleRecord[] = []
    const { d } = deps(async (s) => stored.push(...s))
    for (const at of [NOW, NOW + 30_000, NOW + 59_999, NOW + 60_000]) {
      const sampler = createSweepSampler(d)
      sampler.offer(running, legs, verdict, at)
      await sampler.flush()
    }
    expect(stored.map((s) => Date.parse(s.at) - NOW)).toEqual([0, 60_000])
  })

  test('error: a failed store is logged, and the next sweep samples again', async () => {
    let fail = true
    const stored: TaskSampleRecord[] = []
    const { d, errors } = deps(async (s) => {
      if (fail) throw new Error('database gone')
      return stored.push(...s)
    })
    const first = createSweepSampler(d)
    first.offer(running, legs, verdict, NOW)
    await first.flush()
    expect(errors).toEqual(['task samples not stored'])
    fail = false
    const second = createSweepSampler(d)
    second.offer(running, legs, verdict, NOW + 1_000)
    await second.flush()
    expect(stored).toHaveLength(1)
  })
})
