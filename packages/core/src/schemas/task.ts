import * as v from 'valibot'
import { TASK_STATUSES } from '../domain/task.js'
import {
  DateTimeSchema,
  DecimalStringSchema,
  UuidSchema,
  VenueSchema,
} from './common.js'
import { PendingReasonSchema } from './pendingReason.js'
import { TaskPnl } from './taskPnl.js'

const nullableDecimal = v.nullable(DecimalStringSchema)

/**
 * A paired-position task as responses show it. Every field is present;
 * decimals are strings and not-yet-known values are null.
 */
export const Task = v.object({
  taskId: UuidSchema,
  longVenue: VenueSchema,
  shortVenue: VenueSchema,
  longMarket: v.string(),
  shortMarket: v.string(),
  sizeUsd: DecimalStringSchema,
  status: v.pipe(v.picklist(TASK_STATUSES), v.description('worker state')),
  longSize: nullableDecimal,
  shortSize: nullableDecimal,
  longEntry: nullableDecimal,
  shortEntry: nullableDecimal,
  longPrice: nullableDecimal,
  shortPrice: nullableDecimal,
  longLeverage: nullableDecimal,
  shortLeverage: nullableDecimal,
  liqProtectionPct: nullableDecimal,
  sizeMismatchPct: nullableDecimal,
  fundingUsd: DecimalStringSchema,
  longMarginMode: v.nullable(v.string()),
  shortMarginMode: v.nullable(v.string()),
  closeReason: v.nullable(v.string()),
  error: v.nullable(v.string()),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
  closeRequestedAt: v.nullable(DateTimeSchema),
  // additive fields (not in contract 1.2.0's table; its fields keep their shape)
  pendingReason: v.pipe(
    v.nullable(PendingReasonSchema),
    v.description('why a pending task has not opened yet; null otherwise'),
  ),
  pnl: TaskPnl,
  fundingApyNow: v.pipe(
    nullableDecimal,
    v.description(
      "the pair's funding APY in percent (short rate − long rate, hourly × 8760) from the latest quotes the worker read; null once the task has ended",
    ),
  ),
  settling: v.pipe(
    v.boolean(),
    v.description(
      "true while a closed task's funding since its last booked settlement, or its close orders' venue fees, are still to be read from its venues (the read at the close failed): the worker reads them again, with backoff, for up to 7 days after the close, and fundingUsd and pnl may still change; false otherwise",
    ),
  ),
})
export type Task = v.InferOutput<typeof Task>

/** `GET /v1/delta-neutral/tasks`: newest first, one page. */
export const TaskList = v.object({
  tasks: v.array(Task),
  nextCursor: v.nullable(v.string()),
})
export type TaskList = v.InferOutput<typeof TaskList>

/** `GET /v1/delta-neutral/tasks/{taskId}`. */
export const TaskResponse = v.object({ task: Task })
export type TaskResponse = v.InferOutput<typeof TaskResponse>
