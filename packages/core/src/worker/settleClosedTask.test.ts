import { describe, expect, test } from 'vitest'
import type { CloseSettlement } from '../domain/closeSettlement.js'
import { EMPTY_LEG_BOOK } from '../domain/legBook.js'
import type { TaskRecord } from '../domain/task.js'
import {
  EMPTY_ENGINE_STATE,
  type TaskEngineState,
} from '../domain/taskEngineState.js'
import { taskView } from '../domain/taskView.js'
import { VenueUnavailableError } from '../errors/venue.js'
import { task as taskRow } from '../ports/store.contract.js'
import type {
  FundingPayment,
  ReadOptions,
  VenueFilledOrder,
} from '../ports/venueAdapter.js'
import {
  FIXTURE_NOW,
  FIXTURE_OWNER,
  memoryWorker,
} from './memoryVenue.fixture.js'
import { SETTLE_FIRST_RETRY_MS, SETTLE_GIVE_UP_MS } from './settleRetryAt.js'
import { claimWork, runWorkItem } from './workItems.js'

const iso = (ms: number) => new Date(ms).toISOString()
const TASK_ID = '00000000-0000-4000-8000-0000000000c1'
const SINCE = iso(FIXTURE_NOW - 3_600_000)
/** the task's close completed then */
const CLOSED = FIXTURE_NOW

type Answer<T> = T | Error
type FundingAnswer = Answer<FundingPayment[]>

/**
 * A long-hl / short-aster task in a real store whose funding and fees
 * answer as the test says, claimed and stepped as the worker does.
 */
async function bed(over: Partial<TaskRecord> = {}) {
  const w = await memoryWorker(['hl', 'aster'])
  const funding: Record<string, FundingAnswer> = {
    hl: new VenueUnavailableError('hl down'),
    aster: new VenueUnavailableError('aster down'),
  }
  const fees: Record<string, Answer<string | null>> = {
    hl: null,
    aster: null,
  }
  const asked: string[] = []
  const logs: string[] = []
  for (const v of ['hl', 'aster'] as const) {
    const a = w.deps.adapters[v] as unknown as Record<string, unknown>
    a.funding = async (
      _c: unknown,
      market: string,
      since: string,
      read?: ReadOptions,
    ) => {
      asked.push(`${v} funding ${market} since ${since} ${read?.priority}`)
      const answer = funding[v] as FundingAnswer
      if (answer instanceof Error) throw answer
      return answer
    }
    a.orderFees = async (_c: unknown, _m: string, o: VenueFilledOrder) => {
      asked.push(`${v} fee ${o.clientOrderId}`)
      const answer = fees[v] as Answer<string | null>
      if (answer instanceof Error) throw answer
      return answer
    }
  }
  const deps = {
    ...w.deps,
    logger: {
      info: (msg: string) => logs.push(msg),
      error: (msg: string) => logs.push(`error: ${msg}`),
    },
  }
  await w.store.tasks.insert(
    taskRow({
      id: TASK_ID,
      owner: FIXTURE_OWNER,
      apiKeyId: 'key-1',
      longVenue: 'hl',
      shortVenue: 'aster',
      longMarket: 'BTC',
      shortMarket: 'BTCUSDT',
      status: 'closed',
      closeReason: 'requested',
      longSize: '0',
      shortSize: '0',
      fundingUsd: '1.5',
      nextCheckAt: iso(CLOSED + SETTLE_FIRST_RETRY_MS),
      engineState: settled({}),
      ...over,
    }),
  )
  /** one claim round: each due item run */
  const round = async () => {
    const items = await claimWork(deps, { task: 10 })
    for (const item of items) await runWorkItem(deps, item)
    return items.length
  }
  const row = async () => (await w.store.tasks.get(TASK_ID)) as TaskRecord
  return { ...w, funding, fees, asked, logs, round, row }
}

/** A closed task's engine state, its close's funding owed unless `over` says. */
function settled(over: Partial<CloseSettlement>): TaskEngineState {
  return {
    ...EMPTY_ENGINE_STATE,
    seq: 2,
    fundingSince: SINCE,
    settling: {
      closedAt: iso(CLOSED),
      fundingOn: { long: '0.2', short: '0.2' },
      fees: {},
      tries: 1,
      ...over,
    },
  }
}

const payment = (
  time: number,
  amountUsd: string,
  positionSize = '0',
): FundingPayment => ({
  market: '',
  time: iso(time),
  amountUsd,
  rate: '0',
  positionSize,
})

describe('settleClosedTask', () => {
  test('behavior: a failed read keeps the mark and backs off; a read that succeeds books the task part up to the close', async () => {
    const b = await bed()
    // not due before its check
    b.clock.ms = CLOSED + SETTLE_FIRST_RETRY_MS - 1
    expect(await b.round()).toBe(0)
    b.clock.ms = CLOSED + SETTLE_FIRST_RETRY_MS
    expect(await b.round()).toBe(1)
    let t = await b.row()
    expect(t.status).toBe('closed')
    expect(t.fundingUsd).toBe('1.5')
    expect(t.engineState?.fundingSince).toBe(SINCE)
    expect(t.engineState?.settling?.tries).toBe(2)
    // the second wait is twice the first
    expect(t.nextCheckAt).toBe(iso(b.clock.ms + 2 * SETTLE_FIRST_RETRY_MS))
    expect(taskView(t).settling).toBe(true)
    expect(b.logs).toEqual([
      'closed task settlement read failed; tried again later',
    ])

    b.funding.hl = [
      // paid on 0.4 of which the task held 0.2: half of it
      payment(CLOSED - 600_000, '-0.4', '0.4'),
      // after the close: another holding's, not the task's
      payment(CLOSED + 1, '5', '0.2'),
    ]
    // Aster tells no position size: all of it
    b.funding.aster = [payment(CLOSED - 600_000, '0.3')]
    b.clock.ms = CLOSED + 3 * SETTLE_FIRST_RETRY_MS
    expect(await b.round()).toBe(1)
    t = await b.row()
    expect(t.fundingUsd).toBe('1.6')
    expect(t.engineState?.settling).toBeNull()
    expect(t.engineState?.fundingSince).toBe(iso(CLOSED - 600_000 + 1))
    expect(t.nextCheckAt).toBeNull()
    expect(t.error).toBeNull()
    expect(taskView(t)).toMatchObject({ settling: false, fundingUsd: '1.6' })
    // read at the budget's lowest priority, from the kept cursor
    expect(b.asked.at(-1)).toBe(`aster funding BTCUSDT since ${SINCE} history`)
    // never claimed again
    b.clock.ms += 30 * 86_400_000
    expect(await b.round()).toBe(0)
  })

  test('behavior: a try that fails at the bound ends the tries, logged and named in the error', async () => {
    const b = await bed({
      nextCheckAt: iso(CLOSED + SETTLE_GIVE_UP_MS),
      engineState: settled({ tries: 170 }),
    })
    b.clock.ms = CLOSED + SETTLE_GIVE_UP_MS
    expect(await b.round()).toBe(1)
    const t = await b.row()
    expect(t).toMatchObject({
      status: 'closed',
      fundingUsd: '1.5',
      nextCheckAt: null,
      error: `not read from the venues within 7 days of the close: funding paid since ${SINCE} (not in fundingUsd)`,
    })
    expect(t.engineState?.settling).toBeNull()
    expect(taskView(t).settling).toBe(false)
    expect(b.logs).toEqual(['error: closed task settlement given up'])
  })

  test('behavior: a close order fee read later is booked and makes the leg fees known', async () => {
    const order = {
      clientOrderId: '0xc1',
      venueOrderId: '7',
      filledBase: '0.2',
      since: CLOSED - 60_000,
    }
    const books = {
      long: { ...EMPTY_LEG_BOOK, venueFeesUsd: '0.5' },
      short: { ...EMPTY_LEG_BOOK, venueFeesUsd: '1', venueFeesUnknown: true },
    }
    const b = await bed({
      engineState: {
        ...settled({
          fundingOn: null,
          fees: { short: { order, unknownBefore: false } },
        }),
        books,
      },
    })
    b.clock.ms = CLOSED + SETTLE_FIRST_RETRY_MS
    // the fill history does not show it yet
    expect(await b.round()).toBe(1)
    let t = await b.row()
    expect(taskView(t).settling).toBe(true)
    expect(taskView(t).pnl.short.feesUsd).toBeNull()
    b.fees.aster = '0.25'
    b.clock.ms = CLOSED + 3 * SETTLE_FIRST_RETRY_MS
    expect(await b.round()).toBe(1)
    t = await b.row()
    expect(t.engineState?.books?.short).toMatchObject({
      venueFeesUsd: '1.25',
      venueFeesUnknown: false,
    })
    expect(taskView(t)).toMatchObject({ settling: false })
    expect(taskView(t).pnl.short.feesUsd).toBe('1.25')
    // no funding was owed: none read
    expect(b.asked.filter((a) => a.includes('funding'))).toEqual([])
    expect(b.asked).toEqual(['aster fee 0xc1', 'aster fee 0xc1'])
  })

  test('behavior: a close whose funding read fails still closes, its funding owed', async () => {
    const b = await bed({
      status: 'closing',
      closeRequestedAt: iso(CLOSED - 1_000),
      longSize: '0.2',
      shortSize: '0.2',
      longEntry: '100',
      shortEntry: '100',
      nextCheckAt: null,
      engineState: {
        ...EMPTY_ENGINE_STATE,
        seq: 1,
        fundingSince: SINCE,
        // a settlement has passed since funding was last booked
        fundingCheckAt: iso(CLOSED - 1_000),
      },
    })
    // the venues hold the legs the close takes back
    b.venue.hl?.hold('BTC', '0.2')
    b.venue.aster?.hold('BTCUSDT', '-0.2')
    // the close orders' fees are read: only the funding is owed
    b.fees.hl = '0.01'
    b.fees.aster = '0.02'
    b.clock.ms = CLOSED
    expect(await b.round()).toBe(1)
    const t = await b.row()
    expect(t).toMatchObject({
      status: 'closed',
      longSize: '0',
      shortSize: '0',
      fundingUsd: '1.5',
      error: null,
      nextCheckAt: iso(CLOSED + SETTLE_FIRST_RETRY_MS),
    })
    expect(t.engineState?.fundingSince).toBe(SINCE)
    expect(t.engineState?.settling).toEqual({
      closedAt: iso(CLOSED),
      fundingOn: { long: '0.2', short: '0.2' },
      fees: {},
      tries: 1,
    } satisfies CloseSettlement)
    expect(taskView(t).settling).toBe(true)
    expect(b.logs).toContain(
      'error: funding since the last settlement not read at close; read again later',
    )
    // the venues answer again: the next claim books it
    b.funding.hl = [payment(CLOSED - 500, '0.1', '0.2')]
    b.funding.aster = []
    b.clock.ms = CLOSED + SETTLE_FIRST_RETRY_MS
    expect(await b.round()).toBe(1)
    expect(await b.row()).toMatchObject({
      fundingUsd: '1.6',
      nextCheckAt: null,
    })
    expect(taskView(await b.row()).settling).toBe(false)
  })
})
