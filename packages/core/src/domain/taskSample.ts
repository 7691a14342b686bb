/**
 * One point of a running task's history, as the monitor sweep saw it: its
 * funding and PnL so far, the pair's funding APY, the legs' marks and how
 * far each leg is from liquidation. Decimals are strings.
 */
export interface TaskSampleRecord {
  readonly taskId: string
  /** ISO time the sweep evaluated the task */
  readonly at: string
  /** funding booked so far, USD */
  readonly fundingUsd: string
  /** realized + unrealized + funding − fees, USD */
  readonly pnlTotalUsd: string
  readonly unrealizedUsd: string
  readonly feesUsd: string
  /** the pair's funding APY in percent; null when the quotes had none */
  readonly fundingApy: string | null
  readonly longPrice: string | null
  readonly shortPrice: string | null
  /** the mark's distance to the leg's liquidation price, in percent */
  readonly longLiqDistancePct: string | null
  readonly shortLiqDistancePct: string | null
}

/** How often a running task is sampled by default: once a minute. */
export const TASK_SAMPLE_MS = 60_000
/** Samples one history read returns at most, and when no limit is given. */
export const TASK_HISTORY_MAX = 2_000
export const TASK_HISTORY_LIMIT = 500
