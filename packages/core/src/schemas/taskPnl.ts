import * as v from 'valibot'
import { DecimalStringSchema } from './common.js'

const nullableDecimal = v.nullable(DecimalStringSchema)

/** One leg's PnL and fees, in USD; prices are averages over its fills. */
const LegPnl = v.object({
  realizedUsd: v.pipe(
    DecimalStringSchema,
    v.description(
      'PnL of the fills that reduced the leg, at its average entry',
    ),
  ),
  unrealizedUsd: v.pipe(
    DecimalStringSchema,
    v.description('the size held against the latest mark the worker saw'),
  ),
  feesUsd: v.pipe(
    nullableDecimal,
    v.description(
      "venue trading fees of the leg's fills, read from the venue's fill history; null while one fill's fee is not known",
    ),
  ),
  builderFeesUsd: v.pipe(
    DecimalStringSchema,
    v.description(
      'builder fees: the rate attached to each order × its filled notional',
    ),
  ),
  entryPrice: v.pipe(
    nullableDecimal,
    v.description(
      'average price of the fills that opened or grew the leg; kept after close',
    ),
  ),
  exitPrice: v.pipe(
    nullableDecimal,
    v.description(
      'average price of the fills that reduced the leg; null until one',
    ),
  ),
})

/**
 * A task's PnL. totalUsd = realizedUsd + unrealizedUsd + fundingUsd −
 * feesUsd; feesUsd adds every fee known (builder fees, venue fees where
 * reported).
 */
export const TaskPnl = v.object({
  long: LegPnl,
  short: LegPnl,
  realizedUsd: DecimalStringSchema,
  unrealizedUsd: DecimalStringSchema,
  fundingUsd: DecimalStringSchema,
  feesUsd: DecimalStringSchema,
  totalUsd: DecimalStringSchema,
})
export type TaskPnl = v.InferOutput<typeof TaskPnl>
