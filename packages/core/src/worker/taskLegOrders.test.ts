import { describe, expect, test } from 'vitest'
import { NEVER_PLACED_AFTER_MS, SEND_WINDOW_MS } from '../domain/sendWindow.js'
import type { TaskRecord } from '../domain/task.js'
import type {
  LegOrder,
  TaskEngineState,
  TaskOperation,
} from '../domain/taskEngineState.js'
import { UncertainSubmissionError } from '../errors/venue.js'
import { task as taskRow } from '../ports/store.contract.js'
import {
  FIXTURE_NOW,
  FIXTURE_OWNER,
  MEMORY_VISIBILITY_LAG_MS,
  memoryWorker,
} from './memoryVenue.fixture.js'
import { processTask } from './processTask.js'
import { legClientOrderId } from './taskLegOrders.js'

const iso = (ms: number) => new Date(ms).toISOString()
const TASK_ID = '00000000-0000-4000-8000-000000000001'
const LONG_ID = legClientOrderId(TASK_ID, 1, 'long')
const SHORT_ID = legClientOrderId(TASK_ID, 1, 'short')

function leg(over: Partial<LegOrder> & Pick<LegOrder, 'side'>): LegOrder {
  return {
    clientOrderId: over.side === 'long' ? LONG_ID : SHORT_ID,
    size: '5',
    price: over.side === 'long' ? '101' : '99',
    reduceOnly: false,
    state: 'sending',
    filledBase: '0',
    averagePrice: null,
    failed: null,
    sendBy: iso(FIXTURE_NOW + SEND_WINDOW_MS),
    ...over,
  }
}

/** An open operation saved (committed) at FIXTURE_NOW, not yet known. */
function inFlight(
  long: Partial<LegOrder> = {},
  short: Partial<LegOrder> = {},
): TaskEngineState {
  const op: TaskOperation = {
    kind: 'open',
    seq: 1,
    startedAt: iso(FIXTURE_NOW),
    legs: {
      long: leg({ side: 'long', ...long }),
      short: leg({ side: 'short', ...short }),
    },
  }
  return { op, seq: 1, fundingSince: null, fundingBelowSince: null }
}

/** A long-hl / short-aster task in a real store, stepped as claimed. */
async function bed(over: Partial<TaskRecord> = {}) {
  const w = await memoryWorker(['hl', 'aster'])
  const hl = w.venue.hl as NonNullable<(typeof w.venue)['hl']>
  const aster = w.venue.aster as NonNullable<(typeof w.venue)['aster']>
  await w.store.tasks.insert(
    taskRow({
      id: TASK_ID,
      owner: FIXTURE_OWNER,
      apiKeyId: 'key-1',
      longVenue: 'hl',
      shortVenue: 'aster',
      longMarket: 'ETH',
      shortMarket: 'ETHUSDT',
      sizeUsd: '500',
      minFundingApy: '0',
      ...over,
    }),
  )
  const step = async () => {
    const row = await w.store.tasks.get(TASK_ID)
    if (!row) throw new RangeError('no task')
    return processTask(w.deps, row)
  }
  const placed = () =>
    [...hl.calls, ...aster.calls].filter((c) => c.startsWith('place'))
  return { ...w, hl, aster, step, placed }
}

describe('task legs: send', () => {
  test('default: a pending task commits both legs, sends each once within its window', async () => {
    const { step, hl, aster } = await bed()
    const after = await step()
    expect(after).toMatchObject({
      status: 'running',
      longSize: '5',
      shortSize: '5',
      error: null,
    })
    expect(after.engineState?.op).toBeNull()
    for (const [v, id, side] of [
      [hl, LONG_ID, 'long'],
      [aster, SHORT_ID, 'short'],
    ] as const) {
      expect(v.sent).toHaveLength(1)
      expect(v.sent[0]).toMatchObject({
        clientOrderId: id,
        side,
        size: '5',
        timeInForce: 'ioc',
        validUntil: FIXTURE_NOW + SEND_WINDOW_MS,
        pairedWithLighter: false,
      })
      // the quotes the legs are priced from are part of sending them
      expect(new Set(v.quotes)).toEqual(new Set(['order']))
    }
  })

  test('behavior: a leg not sent (outage) keeps no deadline and goes again at once', async () => {
    const { step, hl, clock, placed } = await bed()
    hl.state.script = 'unavailable'
    const first = await step()
    expect(first.status).toBe('pending')
    expect(first.engineState?.op?.legs.long).toMatchObject({
      state: 'sending',
      sendBy: null,
    })
    expect(first.engineState?.op?.legs.short).toMatchObject({ state: 'done' })
    expect(first.error).toBe('venue unreachable, retrying: hl: venue down')
    hl.state.script = 'fill'
    clock.ms += 2_000
    const second = await step()
    expect(second).toMatchObject({ status: 'running', longSize: '5' })
    expect(hl.sent.map((r) => r.clientOrderId)).toEqual([LONG_ID])
    expect(hl.sent[0]?.validUntil).toBe(clock.ms + SEND_WINDOW_MS)
    expect(placed()).toHaveLength(3)
  })

  test('behavior: a leg refused once its send window had closed goes again; the opening does not fail', async () => {
    const { step, hl, clock } = await bed()
    hl.state.script = 'reject'
    const place = hl.adapter.place
    hl.adapter.place = async (cred, r) => {
      clock.ms = Math.max(clock.ms, r.validUntil ?? 0)
      return place.call(hl.adapter, cred, r)
    }
    const first = await step()
    expect(first.status).toBe('pending')
    expect(first.engineState?.op?.legs.long).toMatchObject({
      state: 'sending',
      sendBy: null,
    })
    expect(first.error).toMatch(
      /^venue unreachable, retrying: hl: refused after its send window closed \(insufficient margin\); nothing was done$/,
    )
    hl.adapter.place = place
    hl.state.script = 'fill'
    clock.ms += 2_000
    expect(await step()).toMatchObject({ status: 'running', longSize: '5' })
  })

  test('behavior: a leg whose send is uncertain is looked up, not resent, while its window is open', async () => {
    const { step, hl, clock } = await bed()
    hl.state.script = 'lost'
    const first = await step()
    expect(first.engineState?.op?.legs.long).toMatchObject({
      state: 'sending',
      sendBy: iso(FIXTURE_NOW + SEND_WINDOW_MS),
    })
    hl.state.script = 'fill'
    clock.ms += 2_000
    const second = await step()
    expect(second.error).toBe(
      `venue unreachable, retrying: hl: waiting for the send window of ${LONG_ID} to close`,
    )
    expect(hl.sent).toHaveLength(1)
  })
})

describe('task legs: one policy with direct orders', () => {
  test('behavior: a send error the adapter does not classify is uncertain: the leg is looked up, never resent, and the step goes on', async () => {
    const { step, hl, clock } = await bed()
    const adapter = hl.adapter as { place: (...a: unknown[]) => unknown }
    const place = adapter.place
    adapter.place = async (...args: unknown[]) => {
      await place(...args)
      throw new TypeError('socket hang up')
    }
    const first = await step()
    expect(first.error).toBe('venue unreachable, retrying: hl: socket hang up')
    expect(first.engineState?.op?.legs.long).toMatchObject({
      state: 'sending',
      sendBy: iso(FIXTURE_NOW + SEND_WINDOW_MS),
    })
    adapter.place = place
    clock.ms += 2_000
    // the send landed: found by its client order id, not sent again
    expect(await step()).toMatchObject({ status: 'running', longSize: '5' })
    expect(hl.sent).toHaveLength(1)
  })

  test('behavior: a lookup that timed out (uncertain) waits and asks again, as a direct order does', async () => {
    const { step, hl, clock } = await bed()
    hl.state.script = 'lost'
    await step()
    const adapter = hl.adapter as { orderWithVenueTime?: unknown }
    const lookUp = adapter.orderWithVenueTime
    adapter.orderWithVenueTime = async () => {
      throw new UncertainSubmissionError('hl: lookup timed out')
    }
    clock.ms += 2_000
    const waiting = await step()
    expect(waiting.error).toBe(
      'venue unreachable, retrying: hl: hl: lookup timed out',
    )
    adapter.orderWithVenueTime = lookUp
    clock.ms += SEND_WINDOW_MS + NEVER_PLACED_AFTER_MS
    hl.state.script = 'fill'
    // never placed, proven once the window closed: sent again
    expect(await step()).toMatchObject({ status: 'running', longSize: '5' })
    expect(hl.sent.map((r) => r.clientOrderId)).toEqual([LONG_ID, LONG_ID])
  })
})

describe('task legs: look up after a restart', () => {
  test('behavior: legs the venue has are taken from it; nothing is sent', async () => {
    const { step, hl, aster, placed, clock } = await bed({
      engineState: inFlight(),
    })
    for (const [v, id, price] of [
      [hl, LONG_ID, '101'],
      [aster, SHORT_ID, '99'],
    ] as const) {
      v.orders.set(id, {
        clientOrderId: id,
        venueOrderId: '9',
        state: 'filled',
        size: '5',
        filledBase: '5',
        averagePrice: price,
        venueStatus: 'filled',
        reason: null,
      })
    }
    clock.ms += 1_000
    expect(await step()).toMatchObject({
      status: 'running',
      longSize: '5',
      shortSize: '5',
      longEntry: '101',
      shortEntry: '99',
    })
    expect(placed()).toEqual([])
  })

  test('behavior: a leg not found waits out its window plus the margin, then goes again with a new deadline', async () => {
    const { step, clock, placed, hl, store } = await bed({
      engineState: inFlight(),
    })
    clock.ms = FIXTURE_NOW + NEVER_PLACED_AFTER_MS
    const waiting = await step()
    expect(waiting.error).toContain(
      `hl: waiting for the send window of ${LONG_ID} to close`,
    )
    expect(placed()).toEqual([])
    clock.ms = FIXTURE_NOW + NEVER_PLACED_AFTER_MS + 1
    hl.state.script = 'unavailable'
    // the new deadline is saved before the send: an outage leaves none
    const saved = await step()
    expect(saved.engineState?.op?.legs.long?.sendBy).toBeNull()
    hl.state.script = 'fill'
    clock.ms += 1
    expect(await step()).toMatchObject({ status: 'running' })
    expect(hl.sent.map((r) => [r.clientOrderId, r.validUntil])).toEqual([
      [LONG_ID, clock.ms + SEND_WINDOW_MS],
    ])
    expect((await store.tasks.get(TASK_ID))?.longSize).toBe('5')
  })

  test("behavior: by the venue's clock, a leg not found goes again once it is past the deadline and the venue's lag", async () => {
    const { step, clock, placed, hl, aster } = await bed({
      engineState: inFlight(),
    })
    hl.state.venueNow = () => clock.ms
    aster.state.venueNow = () => clock.ms
    const edge = FIXTURE_NOW + SEND_WINDOW_MS + MEMORY_VISIBILITY_LAG_MS
    clock.ms = edge
    const waiting = await step()
    expect(waiting.error).toContain(
      `hl: waiting for the send window of ${LONG_ID} to close`,
    )
    expect(placed()).toEqual([])
    clock.ms = edge + 1_000
    expect(await step()).toMatchObject({ status: 'running' })
    expect(hl.sent.map((r) => r.clientOrderId)).toEqual([LONG_ID])
    expect(aster.sent.map((r) => r.clientOrderId)).toEqual([SHORT_ID])
    // the lookups that could send a leg again went with an order's
    // priority; the ones at the edge could not, and did not
    const lookups = hl.calls.filter((c) => c.startsWith('order '))
    expect(lookups).toEqual([`order ${LONG_ID}`, `order ${LONG_ID} @order`])
  })

  test("behavior: states saved before deadlines wait out our clock's allowance, whatever the venue's clock", async () => {
    const { step, clock, placed, hl, aster } = await bed({
      engineState: inFlight({ sendBy: undefined }, { sendBy: undefined }),
    })
    hl.state.venueNow = () => clock.ms
    aster.state.venueNow = () => clock.ms
    clock.ms = FIXTURE_NOW + NEVER_PLACED_AFTER_MS
    await step()
    expect(placed()).toEqual([])
  })

  test('behavior: states saved before deadlines count the operation start', async () => {
    const { step, clock, placed } = await bed({
      engineState: inFlight({ sendBy: undefined }, { sendBy: undefined }),
    })
    clock.ms = FIXTURE_NOW + NEVER_PLACED_AFTER_MS
    await step()
    expect(placed()).toEqual([])
    clock.ms += 1
    expect(await step()).toMatchObject({ status: 'running' })
    expect(placed()).toHaveLength(2)
  })
})
