import * as v from 'valibot'
import { describe, expect, test } from 'vitest'
import type { TaskRecord } from '../domain/task.js'
import { taskView } from '../domain/taskView.js'
import { Task, TaskList, TaskResponse } from './task.js'
import { TaskAck } from './taskAck.js'

const record: TaskRecord = {
  id: '0f8fad5b-d9cb-469f-a165-70867728950e',
  owner: `0x${'a'.repeat(40)}`,
  apiKeyId: '11111111-1111-4111-8111-111111111111',
  longVenue: 'hl',
  shortVenue: 'lighter',
  longMarket: 'BTC',
  shortMarket: 'BTC',
  sizeUsd: '250',
  minFundingApy: '0',
  autoClose: true,
  maxSpreadBps: null,
  status: 'pending',
  longSize: null,
  shortSize: null,
  longEntry: null,
  shortEntry: null,
  longPrice: null,
  shortPrice: null,
  longLeverage: null,
  shortLeverage: null,
  liqProtectionPct: null,
  sizeMismatchPct: '5',
  fundingUsd: '-0.42',
  longMarginMode: null,
  shortMarginMode: null,
  closeReason: null,
  error: null,
  closeRequestedAt: null,
  resizeRequest: null,
  engineState: null,
  createdAt: '2025-05-01T10:00:00.000Z',
  updatedAt: '2025-05-01T10:00:01.000Z',
  leaseOwner: null,
  leaseExpiresAt: null,
  fence: 0,
  nextCheckAt: null,
}
const view = taskView(record)
const ok = (schema: v.GenericSchema, value: unknown) =>
  v.safeParse(schema, value).success

describe('Task', () => {
  test('default: the task view of a stored task matches', () => {
    expect(ok(Task, view)).toBe(true)
    expect(
      ok(Task, { ...view, longSize: '0.01', closeRequestedAt: view.createdAt }),
    ).toBe(true)
  })

  test('error: every field is required', () => {
    for (const key of Object.keys(view)) {
      const { [key as keyof typeof view]: _gone, ...rest } = view
      expect(ok(Task, rest)).toBe(false)
    }
  })

  test('error: decimals are strings, ids are uuids, times are ISO', () => {
    expect(ok(Task, { ...view, sizeUsd: 250 })).toBe(false)
    expect(ok(Task, { ...view, fundingUsd: null })).toBe(false)
    expect(ok(Task, { ...view, taskId: 'task-1' })).toBe(false)
    expect(ok(Task, { ...view, updatedAt: 'now' })).toBe(false)
    expect(ok(Task, { ...view, longVenue: 'okx' })).toBe(false)
  })

  test('behavior: list, envelope and acknowledgement', () => {
    expect(ok(TaskList, { tasks: [view], nextCursor: null })).toBe(true)
    expect(ok(TaskList, { tasks: [], nextCursor: 'abc' })).toBe(true)
    expect(ok(TaskList, { tasks: [] })).toBe(false)
    expect(ok(TaskResponse, { task: view })).toBe(true)
    for (const status of ['pending', 'cancelled', 'close_queued', 'resizing']) {
      expect(ok(TaskAck, { taskId: view.taskId, status })).toBe(true)
    }
    expect(ok(TaskAck, { taskId: view.taskId, status: 'running' })).toBe(false)
  })
})
