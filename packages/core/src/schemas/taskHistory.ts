import * as v from 'valibot'
import { TASK_HISTORY_LIMIT, TASK_HISTORY_MAX } from '../domain/taskSample.js'
import { DateTimeSchema, DecimalStringSchema, UuidSchema } from './common.js'
import { UtcTimestampSchema } from './listQuery.js'

const nullableDecimal = v.nullable(DecimalStringSchema)

/**
 * Query of `GET /v1/delta-neutral/tasks/{taskId}/history`. The server
 * turns `limit` into a number only when it is all digits.
 */
export const TaskHistoryQuery = v.strictObject({
  since: v.optional(
    v.pipe(
      UtcTimestampSchema,
      v.description('only samples taken at or after this time'),
    ),
  ),
  limit: v.optional(
    v.pipe(
      v.number('must be an integer'),
      v.integer(),
      v.minValue(1),
      v.maxValue(TASK_HISTORY_MAX),
      v.description('the newest samples returned, at most'),
      v.metadata({ default: TASK_HISTORY_LIMIT }),
    ),
  ),
})
export type TaskHistoryQuery = v.InferOutput<typeof TaskHistoryQuery>

/** One sample of a running task, taken by the worker's monitor. */
export const TaskSample = v.object({
  at: DateTimeSchema,
  fundingUsd: v.pipe(
    DecimalStringSchema,
    v.description('funding booked so far'),
  ),
  pnlTotalUsd: v.pipe(
    DecimalStringSchema,
    v.description('realized + unrealized + funding − fees'),
  ),
  unrealizedUsd: DecimalStringSchema,
  feesUsd: DecimalStringSchema,
  fundingApy: v.pipe(
    nullableDecimal,
    v.description("the pair's funding APY in percent at that time"),
  ),
  longPrice: nullableDecimal,
  shortPrice: nullableDecimal,
  longLiqDistancePct: v.pipe(
    nullableDecimal,
    v.description(
      "the long leg's mark to its liquidation price, in percent of the mark; null when the venue showed none",
    ),
  ),
  shortLiqDistancePct: nullableDecimal,
})
export type TaskSample = v.InferOutput<typeof TaskSample>

/** The close rules a running task is watched against. */
export const TaskRules = v.object({
  autoClose: v.pipe(
    v.boolean(),
    v.description('whether the task closes when funding stays under min'),
  ),
  minFundingApy: DecimalStringSchema,
  fundingBelowSince: v.pipe(
    v.nullable(DateTimeSchema),
    v.description('since when the funding APY has been under minFundingApy'),
  ),
  maxSpreadBps: v.pipe(
    nullableDecimal,
    v.description('the widest spread between the legs the task opens at'),
  ),
  liqProtectionPct: v.pipe(
    nullableDecimal,
    v.description('closes when a leg is nearer its liquidation than this'),
  ),
  sizeMismatchPct: v.pipe(
    nullableDecimal,
    v.description('closes when the legs differ by more than this'),
  ),
})
export type TaskRules = v.InferOutput<typeof TaskRules>

/** `GET /v1/delta-neutral/tasks/{taskId}/history`: samples oldest first. */
export const TaskHistory = v.object({
  taskId: UuidSchema,
  rules: TaskRules,
  samples: v.array(TaskSample),
})
export type TaskHistory = v.InferOutput<typeof TaskHistory>
