import type { CloseSettlement, OwedFee } from '../domain/closeSettlement.js'
import { closeSettlementOpen } from '../domain/closeSettlement.js'
import { EMPTY_LEG_BOOK } from '../domain/legBook.js'
import type {
  Leg,
  TaskEngineState,
  TaskOperation,
} from '../domain/taskEngineState.js'
import { dec } from '../util/decimal.js'
import { errorMessage } from '../util/errorMessage.js'
import { msToIso } from '../util/time.js'
import { CLOCK_SLACK_MS } from './legVenueFees.js'
import { settleRetryAt } from './settleRetryAt.js'
import { bookFunding, settlementUnbooked } from './taskFunding.js'
import type { TaskStep } from './taskStep.js'

const LEGS: readonly Leg[] = ['long', 'short']

/** What a completed close books, and when its settlement is tried again. */
interface SettledAtClose {
  readonly fundingUsd?: string
  readonly engineState: TaskEngineState
  /** null: nothing is left to read */
  readonly retryAt: number | null
}

/**
 * A close that lands between a settlement and the step that books it
 * (funding is read a little after each settlement, the close can come
 * first) books that payment with the sizes the task held, so a closed
 * task's funding total is whole. A read that fails does not hold the task
 * open (its orders are done, and a venue that stays down must not): it
 * closes with the funding, and any close order's venue fee not read, kept
 * as owed (`engineState.settling`), its cursor kept, and the worker reads
 * them again later (`settleClosedTask`).
 * @param state the engine state the close's fills were booked into
 */
export async function settleAtClose(
  step: TaskStep,
  op: TaskOperation,
  state: TaskEngineState,
): Promise<SettledAtClose> {
  const t = step.task
  // payments at or after the close are not the task's: the account may
  // hold the market again for another task by the time they are read
  const closedAt = step.deps.clock.now()
  let fundingOn: CloseSettlement['fundingOn'] = null
  let booked: { fundingUsd: string; fundingSince: string } | null = null
  if ((t.longSize || t.shortSize) && settlementUnbooked(step)) {
    const legSizes = { long: t.longSize, short: t.shortSize }
    try {
      booked = await bookFunding(
        step,
        legSizes,
        { long: undefined, short: undefined },
        { until: msToIso(closedAt) },
      )
    } catch (err) {
      step.deps.logger.error(
        'funding since the last settlement not read at close; read again later',
        {
          task: t.id,
          error: errorMessage(err),
        },
      )
      fundingOn = legSizes
    }
  }
  const settling: CloseSettlement = {
    closedAt: msToIso(closedAt),
    fundingOn,
    fees: await owedFees(step, op),
    tries: 1,
  }
  const open = closeSettlementOpen(settling)
  return {
    ...(booked ? { fundingUsd: booked.fundingUsd } : {}),
    engineState: {
      ...state,
      ...(booked ? { fundingSince: booked.fundingSince } : {}),
      settling: open ? settling : null,
    },
    retryAt: open ? settleRetryAt(closedAt, 1, closedAt) : null,
  }
}

/**
 * The close's filled leg orders whose venue fee was not read
 * (`withLegVenueFees` recorded null), on venues that can tell it.
 */
async function owedFees(
  step: TaskStep,
  op: TaskOperation,
): Promise<Partial<Record<Leg, OwedFee>>> {
  const fees: Partial<Record<Leg, OwedFee>> = {}
  const missing = LEGS.filter((l) => {
    const o = op.legs[l]
    return (
      o !== undefined &&
      o.venueFeeUsd === null &&
      o.averagePrice !== null &&
      !dec(o.filledBase).isZero()
    )
  })
  if (missing.length === 0) return fees
  const io = await step.io()
  for (const l of missing) {
    const o = op.legs[l]
    if (!o || !io[l].adapter.orderFees) continue
    const book = step.task.engineState?.books?.[l] ?? EMPTY_LEG_BOOK
    fees[l] = {
      order: {
        clientOrderId: o.clientOrderId,
        venueOrderId: o.venueOrderId ?? null,
        filledBase: o.filledBase,
        since: Date.parse(op.startedAt) - CLOCK_SLACK_MS,
      },
      unknownBefore: book.venueFeesUnknown !== false,
    }
  }
  return fees
}
