import type { TaskRecord } from './task.js'

/** The contract's Task resource: every field present, decimals as strings. */
export interface TaskView {
  readonly taskId: string
  readonly longVenue: string
  readonly shortVenue: string
  readonly longMarket: string
  readonly shortMarket: string
  readonly sizeUsd: string
  readonly status: string
  readonly longSize: string | null
  readonly shortSize: string | null
  readonly longEntry: string | null
  readonly shortEntry: string | null
  readonly longPrice: string | null
  readonly shortPrice: string | null
  readonly longLeverage: string | null
  readonly shortLeverage: string | null
  readonly liqProtectionPct: string | null
  readonly sizeMismatchPct: string | null
  readonly fundingUsd: string
  readonly longMarginMode: string | null
  readonly shortMarginMode: string | null
  readonly closeReason: string | null
  readonly error: string | null
  readonly createdAt: string
  readonly updatedAt: string
  readonly closeRequestedAt: string | null
}

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
  }
}
