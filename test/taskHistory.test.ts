import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { call, dialects, type TestOwner } from './support/testService.js'
import { startWorkerBed, type WorkerBed } from './support/workerHarness.js'

const TASKS = '/v1/delta-neutral/tasks'
const SAMPLE_MS = 5_000

/**
 * `GET /v1/delta-neutral/tasks/{id}/history`: the samples the worker's
 * monitor takes of a running task (at most one per slot), the task's close
 * rules, and the route's errors.
 */
describe.each(dialects())('task history over HTTP (%s)', (dialect) => {
  let bed: WorkerBed
  let o: TestOwner
  let other: TestOwner
  let id: string
  beforeAll(async () => {
    bed = await startWorkerBed({ dialect, seed: 5, taskSampleMs: SAMPLE_MS })
    o = await bed.owner()
    other = await bed.owner()
    id = await bed.createTask(o, {
      minFundingApy: 0,
      maxSpreadBps: 50,
      liqProtectionPct: 5,
      sizeMismatchPct: 2,
    })
    await bed.drain()
    expect((await bed.getTask(o, id)).status).toBe('running')
    // three slots, each swept more than once
    for (let i = 0; i < 6; i++) await bed.advance(SAMPLE_MS / 2)
  })
  afterAll(() => bed?.close())

  const history = (query = '', key = o.apiKey) =>
    call(bed.svc, 'GET', `${TASKS}/${id}/history${query}`, { key })

  test('default: samples oldest first, one per slot, with the close rules', async () => {
    const res = await history()
    expect(res.status, res.text).toBe(200)
    const { samples, rules, taskId } = res.body
    expect(taskId).toBe(id)
    expect(rules).toEqual({
      autoClose: true,
      minFundingApy: '0',
      fundingBelowSince: expect.toBeOneOf([null, expect.any(String)]),
      maxSpreadBps: '50',
      liqProtectionPct: '5',
      sizeMismatchPct: '2',
    })
    expect(samples.length).toBeGreaterThanOrEqual(3)
    const slots = samples.map((s: { at: string }) =>
      Math.floor(Date.parse(s.at) / SAMPLE_MS),
    )
    expect(new Set(slots).size).toBe(slots.length)
    expect([...slots].sort()).toEqual(slots)
    const task = await bed.getTask(o, id)
    const last = samples[samples.length - 1]
    expect(last).toMatchObject({
      fundingUsd: expect.any(String),
      pnlTotalUsd: expect.any(String),
      unrealizedUsd: expect.any(String),
      feesUsd: task.pnl.feesUsd,
      fundingApy: expect.any(String),
      longPrice: expect.any(String),
      shortPrice: expect.any(String),
    })
    // the simulated lighter account shows a liquidation price for its short
    expect(last.shortLiqDistancePct).toMatch(/^\d+(\.\d{1,2})?$/)
    expect(Object.keys(last).sort()).toEqual(
      [
        'at',
        'feesUsd',
        'fundingApy',
        'fundingUsd',
        'longLiqDistancePct',
        'longPrice',
        'pnlTotalUsd',
        'shortLiqDistancePct',
        'shortPrice',
        'unrealizedUsd',
      ].sort(),
    )
  })

  test('behavior: limit keeps the newest, since the later ones', async () => {
    const all = (await history()).body.samples
    const newest = await history('?limit=2')
    expect(newest.body.samples).toEqual(all.slice(-2))
    const since = await history(`?since=${all[1].at}`)
    expect(since.body.samples).toEqual(all.slice(1))
  })

  test('behavior: a closed task keeps its history', async () => {
    const before = (await history()).body.samples.length
    expect((await bed.taskAction(o, id, 'close')).status).toBe(202)
    await bed.drain()
    expect((await bed.getTask(o, id)).status).toBe('closed')
    await bed.advance(SAMPLE_MS * 2)
    expect((await history()).body.samples).toHaveLength(before)
  })

  test('error: no key is 401, another owner gets 404', async () => {
    const none = await call(bed.svc, 'GET', `${TASKS}/${id}/history`)
    expect(none.status).toBe(401)
    expect(none.body).toMatchObject({
      error: expect.any(String),
      code: expect.any(String),
    })
    const theirs = await history('', other.apiKey)
    expect(theirs.status).toBe(404)
    expect(theirs.body).toMatchObject({
      code: 'task_not_found',
      error: expect.any(String),
    })
  })

  test.each([
    ['?limit=0'],
    ['?limit=2001'],
    ['?limit=ten'],
    ['?since=yesterday'],
    ['?since=2030-04-01T00:00:00%2B02:00'],
    ['?since=2030-02-30T00:00:00.000Z'],
    ['?cursor=abc'],
    ['?limit=1&limit=2'],
  ])('error: query %s is 400 invalid_query', async (query) => {
    const res = await history(query)
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({
      code: 'invalid_query',
      error: expect.any(String),
    })
  })

  test('error: a malformed task id is 400, an unknown one 404', async () => {
    const bad = await call(bed.svc, 'GET', `${TASKS}/nope/history`, {
      key: o.apiKey,
    })
    expect(bad.status).toBe(400)
    expect(bad.body.code).toBe('invalid_path_id')
    const unknown = await call(
      bed.svc,
      'GET',
      `${TASKS}/00000000-0000-4000-8000-000000000000/history`,
      { key: o.apiKey },
    )
    expect(unknown.status).toBe(404)
    expect(unknown.body.code).toBe('task_not_found')
  })
})
