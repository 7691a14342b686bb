import { describe, expect, test } from 'vitest'
import { ACCOUNT_BUSY } from '../domain/pendingReason.js'
import type { TaskRecord } from '../domain/task.js'
import {
  EMPTY_ENGINE_STATE,
  type TaskEngineState,
} from '../domain/taskEngineState.js'
import { pendingReasonPatch } from './pendingReasons.js'

const step = (status: TaskRecord['status'], state: TaskEngineState) => ({
  task: { status } as TaskRecord,
  state,
})

describe('pendingReasonPatch', () => {
  test('default: a new reason is written with the APY seen', () => {
    expect(
      pendingReasonPatch(
        step('pending', EMPTY_ENGINE_STATE),
        ACCOUNT_BUSY,
        '3',
      ),
    ).toEqual({
      engineState: {
        ...EMPTY_ENGINE_STATE,
        pendingReason: ACCOUNT_BUSY,
        fundingApy: '3',
      },
    })
  })

  test('the reason the task shows already is not written again', () => {
    const state = { ...EMPTY_ENGINE_STATE, pendingReason: ACCOUNT_BUSY }
    expect(
      pendingReasonPatch(step('pending', state), { ...ACCOUNT_BUSY }, '4'),
    ).toBeNull()
  })

  test('only a pending task between operations gets one', () => {
    expect(
      pendingReasonPatch(step('running', EMPTY_ENGINE_STATE), ACCOUNT_BUSY),
    ).toBeNull()
    const opening = {
      ...EMPTY_ENGINE_STATE,
      op: { kind: 'open' as const, seq: 1, startedAt: '', legs: {} },
    }
    expect(
      pendingReasonPatch(step('pending', opening), ACCOUNT_BUSY),
    ).toBeNull()
  })
})
