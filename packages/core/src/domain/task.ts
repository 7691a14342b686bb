import type { Lease } from './lease.js'
import type { TaskEngineState } from './taskEngineState.js'
import type { VenueId } from './venue.js'

/** Every task state, in lifecycle order (the response schema lists them). */
export const TASK_STATUSES = [
  'pending',
  'running',
  'resizing',
  'closing',
  'closed',
  'cancelled',
  'failed',
] as const

export type TaskStatus = (typeof TASK_STATUSES)[number]

/**
 * States in which a task still holds its venue accounts, and which the
 * task worker claims.
 */
export const ACTIVE_TASK_STATUSES: readonly TaskStatus[] = [
  'pending',
  'running',
  'resizing',
  'closing',
]

export const TERMINAL_TASK_STATUSES: readonly TaskStatus[] = [
  'closed',
  'cancelled',
  'failed',
]

/** A pending resize request, kept until the worker carries it out. */
export interface ResizeRequest {
  readonly longTargetBase: string | null
  readonly shortTargetBase: string | null
  readonly requestedAt: string
}

/** Everything stored about a paired-position task. Decimals are strings. */
export interface TaskRecord extends Lease {
  readonly id: string
  readonly owner: string
  readonly apiKeyId: string
  readonly longVenue: VenueId
  readonly shortVenue: VenueId
  readonly longMarket: string
  readonly shortMarket: string
  readonly sizeUsd: string
  readonly minFundingApy: string
  readonly autoClose: boolean
  readonly maxSpreadBps: string | null
  readonly status: TaskStatus
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
  readonly closeRequestedAt: string | null
  readonly resizeRequest: ResizeRequest | null
  /** the worker's bookkeeping (operation in flight, funding cursor) */
  readonly engineState: TaskEngineState | null
  readonly createdAt: string
  readonly updatedAt: string
}
