import {
  BUDGET_FALLBACK_MS,
  FUNDING_READ_LAG_MS,
  RequestBudgetError,
} from '@dn/core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { dialects, type TestOwner } from './support/testService.js'
import { startWorkerBed, type WorkerBed } from './support/workerHarness.js'

const HOUR = 3_600_000

/**
 * What monitoring asks of the venues: positions shared per account,
 * funding only after a settlement, and a task that says when a round
 * waited for a venue's request budget. Its own bed: these move the clock
 * by an hour.
 */
describe.each(dialects())('monitoring running tasks (%s)', (dialect) => {
  let bed: WorkerBed
  let o: TestOwner
  beforeAll(async () => {
    bed = await startWorkerBed({ dialect, fundingGraceMs: 60_000 })
    o = await bed.owner()
  })
  afterAll(() => bed?.close())

  const create = () => bed.createTask(o)
  const get = (id: string) => bed.getTask(o, id)
  const post = (id: string, action: string) => bed.taskAction(o, id, action)

  test('a round refused for budget says so in the task, and the note clears once a round gets through', async () => {
    const id = await create()
    await bed.drain()
    expect((await get(id)).status).toBe('running')
    const a = bed.venues.adapters.lighter
    const positions = a.positions.bind(a)
    a.positions = () =>
      Promise.reject(
        new RequestBudgetError(
          'lighter: not sent, its routine request budget is spent; retrying later',
        ),
      )
    // past the positions snapshot's age: the sweep evaluates with the
    // last snapshot while the budget holds the read back
    await bed.advance(11_000)
    expect(await get(id)).toMatchObject({ status: 'running', error: null })
    // past the age a snapshot may serve so (BUDGET_FALLBACK_MS): the sweep
    // cannot evaluate the task, and says why
    await bed.advance(BUDGET_FALLBACK_MS - 10_000)
    const waiting = await get(id)
    expect(waiting.status).toBe('running')
    expect(waiting.error).toMatch(
      /^waiting for the venue's request budget: lighter: not sent/,
    )
    a.positions = positions
    await bed.advance(3_000)
    expect(await get(id)).toMatchObject({ status: 'running', error: null })
    await post(id, 'close')
    await bed.drain()
  })

  test('monitoring: positions shared per account at most 10 s old, funding read once a settlement has passed', async () => {
    // keep clear of an hour boundary while counting
    const toHour = HOUR - (bed.clock.now() % HOUR)
    if (toHour < 90_000) await bed.advance(toHour + 5_000)
    const id = await create()
    await bed.drain()
    expect((await get(id)).status).toBe('running')
    const calls = { positions: 0, funding: 0 }
    for (const v of ['aster', 'lighter'] as const) {
      const a = bed.venues.adapters[v]
      const positions = a.positions.bind(a)
      const funding = a.funding.bind(a)
      a.positions = (...args) => {
        calls.positions++
        return positions(...args)
      }
      a.funding = (...args) => {
        calls.funding++
        return funding(...args)
      }
    }
    // 30 monitor rounds, one a second
    for (let i = 0; i < 30; i++) await bed.advance(1_000)
    expect(calls.funding).toBe(0)
    // two accounts, each read at most once per 10 s (other tasks of the
    // owner share the reads)
    expect(calls.positions).toBeGreaterThanOrEqual(2)
    expect(calls.positions).toBeLessThanOrEqual(2 * 4)
    const before = await get(id)
    // the next settlement passes: funding is read (once the venue shows
    // it) and booked
    await bed.advance(HOUR - (bed.clock.now() % HOUR) + 3_000)
    expect(calls.funding).toBe(0)
    await bed.advance(FUNDING_READ_LAG_MS)
    expect(calls.funding).toBeGreaterThanOrEqual(2)
    const after = await get(id)
    expect(after.fundingUsd).not.toBe(before.fundingUsd)
    await post(id, 'close')
    await bed.drain()
  })
  test('a close between a settlement and the step that books it still books that payment', async () => {
    const toHour = HOUR - (bed.clock.now() % HOUR)
    if (toHour < 90_000) await bed.advance(toHour + 5_000)
    const id = await create()
    await bed.drain()
    const before = await get(id)
    expect(before.status).toBe('running')
    // just past the settlement, before the step that would read it: the
    // close comes first
    bed.clock.advance(HOUR - (bed.clock.now() % HOUR) + 500)
    await post(id, 'close')
    await bed.drain()
    const closed = await get(id)
    expect(closed.status).toBe('closed')
    expect(closed.fundingUsd).not.toBe(before.fundingUsd)
  })
})
