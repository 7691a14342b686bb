import type { Leg, TaskOperation } from '../domain/taskEngineState.js'
import { dec } from '../util/decimal.js'
import { within } from '../util/within.js'
import type { LegIo } from './taskLegOrders.js'

/**
 * How far before the operation's start a venue's fill history is read
 * from: the venue's clock stamps the fills, and it may run behind ours.
 */
export const CLOCK_SLACK_MS = 60_000

/**
 * Longest the completion of an operation waits for a fee read: the read
 * goes at the budget's lowest priority and may queue behind routine reads,
 * while the task's new status should not.
 */
const FEE_READ_WAIT_MS = 2_000

/**
 * The operation with the venue trading fee of each filled leg order that
 * does not carry one yet, read once from its venue (`orderFees`). A fee
 * that cannot be read (venue unavailable, history behind, a fee in
 * another asset, no answer within FEE_READ_WAIT_MS) is recorded as null,
 * unknown: the fee never holds up the task, and the read is not retried.
 */
export async function withLegVenueFees(
  op: TaskOperation,
  io: Readonly<Partial<Record<Leg, LegIo>>>,
): Promise<TaskOperation> {
  const legs = { ...op.legs }
  await Promise.all(
    (Object.keys(legs) as Leg[]).map(async (leg) => {
      const order = legs[leg]
      const ctx = io[leg]
      if (order?.state !== 'done' || order.venueFeeUsd !== undefined) return
      if (dec(order.filledBase).isZero()) return
      const read = ctx?.adapter.orderFees
      const feeUsd =
        ctx && read
          ? await within(
              read.call(ctx.adapter, ctx.cred, ctx.market, {
                clientOrderId: order.clientOrderId,
                venueOrderId: order.venueOrderId ?? null,
                filledBase: order.filledBase,
                since: Date.parse(op.startedAt) - CLOCK_SLACK_MS,
              }),
              FEE_READ_WAIT_MS,
            )
          : null
      legs[leg] = { ...order, venueFeeUsd: feeUsd }
    }),
  )
  return { ...op, legs }
}
