import type { Task } from '../schemas/task.js'
import { closeSettlementOpen } from './closeSettlement.js'
import { type TaskRecord, TERMINAL_TASK_STATUSES } from './task.js'
import { taskPnl } from './taskPnl.js'

/** The contract's Task resource; its type comes from the response schema. */
export type TaskView = Task

export function taskView(t: TaskRecord): TaskView {
  return {
    taskId: t.id,
    longVenue: t.longVenue,
    shortVenue: t.shortVenue,
    longMarket: t.longMarket,
    shortMarket: t.shortMarket,
    sizeUsd: t.sizeUsd,
    status: t.status,
    longSize: t.longSize,
    shortSize: t.shortSize,
    longEntry: t.longEntry,
    shortEntry: t.shortEntry,
    longPrice: t.longPrice,
    shortPrice: t.shortPrice,
    longLeverage: t.longLeverage,
    shortLeverage: t.shortLeverage,
    liqProtectionPct: t.liqProtectionPct,
    sizeMismatchPct: t.sizeMismatchPct,
    fundingUsd: t.fundingUsd,
    longMarginMode: t.longMarginMode,
    shortMarginMode: t.shortMarginMode,
    closeReason: t.closeReason,
    error: t.error,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
    closeRequestedAt: t.closeRequestedAt,
    pendingReason:
      t.status === 'pending' ? (t.engineState?.pendingReason ?? null) : null,
    pnl: taskPnl(t),
    fundingApyNow: TERMINAL_TASK_STATUSES.includes(t.status)
      ? null
      : (t.engineState?.fundingApy ?? null),
    settling:
      t.status === 'closed' &&
      !!t.engineState?.settling &&
      closeSettlementOpen(t.engineState.settling),
  }
}
