import * as v from 'valibot'
import { describe, expect, test } from 'vitest'
import { requestLogView } from '../domain/requestLogView.js'
import { RequestLog, RequestLogList } from './requestLog.js'

const view = requestLogView({
  id: '6ba7b810-9dad-41d1-80b4-00c04fd430c8',
  apiKeyId: '22222222-2222-4222-8222-222222222222',
  family: 'strategy',
  action: 'create_task',
  method: 'POST',
  path: '/v1/delta-neutral/tasks',
  taskId: null,
  orderId: null,
  httpStatus: 202,
  errorCode: null,
  replayed: false,
  createdAt: '2025-05-01T10:00:00.000Z',
})
const ok = (schema: v.GenericSchema, value: unknown) =>
  v.safeParse(schema, value).success

describe('RequestLog', () => {
  test('default: the view of a stored log matches', () => {
    expect(ok(RequestLog, view)).toBe(true)
    expect(ok(RequestLogList, { requests: [view, view] })).toBe(true)
  })

  test('error: types of snake_case fields', () => {
    expect(ok(RequestLog, { ...view, http_status: '202' })).toBe(false)
    expect(ok(RequestLog, { ...view, http_status: 202.5 })).toBe(false)
    expect(ok(RequestLog, { ...view, task_id: 'x' })).toBe(false)
    expect(ok(RequestLog, { ...view, replayed: 0 })).toBe(false)
    const { order_id: _gone, ...rest } = view
    expect(ok(RequestLog, rest)).toBe(false)
  })

  test('behavior: at most 100 logs', () => {
    expect(ok(RequestLogList, { requests: Array(100).fill(view) })).toBe(true)
    expect(ok(RequestLogList, { requests: Array(101).fill(view) })).toBe(false)
  })
})
