import {
  type CloseSettlement,
  closeSettlementOpen,
  type OwedFee,
} from '../domain/closeSettlement.js'
import { bookLateVenueFee, EMPTY_LEG_BOOK } from '../domain/legBook.js'
import type { Leg, TaskEngineState } from '../domain/taskEngineState.js'
import { FencedOutError } from '../errors/worker.js'
import type { TaskPatch } from '../ports/store.js'
import { errorMessage } from '../util/errorMessage.js'
import { SETTLE_GIVE_UP_MS, settleRetryAt } from './settleRetryAt.js'
import { bookFunding } from './taskFunding.js'
import type { LegIo } from './taskLegOrders.js'
import type { TaskStep } from './taskStep.js'

/** Settlement reads are bookkeeping: the budget's lowest priority. */
const READ = { priority: 'history' } as const

/** What one try read, and why the rest was not. */
interface Tried {
  readonly patch: Pick<TaskPatch, 'fundingUsd'>
  readonly state: TaskEngineState
  readonly rest: CloseSettlement
  readonly errors: string[]
}

/**
 * A closed task whose close could not read everything
 * (`engineState.settling`, see `settleAtClose`), claimed when its next try
 * is due: reads the funding since its cursor (its part of each payment,
 * by the leg sizes held before the close, up to the close) and each close
 * order's venue fee again, books what it gets, and comes back with
 * backoff (`settleRetryAt`) for the rest. A try that fails
 * SETTLE_GIVE_UP_MS after the close is the last: logged, the funding
 * named in the task's error, the fee left unknown.
 * @returns when to try again, or null once nothing is left to read
 */
export async function settleClosedTask(step: TaskStep): Promise<number | null> {
  const owed = step.state.settling
  if (!owed || !closeSettlementOpen(owed)) return null
  const tried = await readOwed(step, owed)
  const { logger } = step.deps
  const fields = {
    task: step.task.id,
    tries: tried.rest.tries,
    errors: tried.errors,
  }
  if (!closeSettlementOpen(tried.rest)) {
    await step.save({
      ...tried.patch,
      engineState: { ...tried.state, settling: null },
    })
    logger.info('closed task settled', fields)
    return null
  }
  const next = settleRetryAt(
    Date.parse(owed.closedAt),
    tried.rest.tries,
    step.now,
  )
  if (next === null) {
    await step.save({
      ...tried.patch,
      engineState: { ...tried.state, settling: null },
      error: givenUp(tried.rest, tried.state.fundingSince),
    })
    logger.error('closed task settlement given up', fields)
    return null
  }
  await step.save({
    ...tried.patch,
    engineState: { ...tried.state, settling: tried.rest },
  })
  logger.info('closed task settlement read failed; tried again later', {
    ...fields,
    nextTryAt: new Date(next).toISOString(),
  })
  return next
}

/** One try of every read still owed; each that fails stays owed. */
async function readOwed(step: TaskStep, owed: CloseSettlement): Promise<Tried> {
  const errors: string[] = []
  const fail = (err: unknown) => {
    // another worker holds the task now: its try counts, not this one
    if (err instanceof FencedOutError) throw err
    errors.push(errorMessage(err))
  }
  let state = step.state
  let patch: Tried['patch'] = {}
  let fundingOn = owed.fundingOn
  let io: Record<Leg, LegIo> | null = null
  try {
    io = await step.io()
  } catch (err) {
    // a credential unusable now (unbound, revoked key) may be rebound
    fail(err)
  }
  if (io && fundingOn) {
    try {
      const booked = await bookFunding(
        step,
        fundingOn,
        { long: undefined, short: undefined },
        { until: owed.closedAt, read: READ },
      )
      patch = { fundingUsd: booked.fundingUsd }
      state = { ...state, fundingSince: booked.fundingSince }
      fundingOn = null
    } catch (err) {
      fail(err)
    }
  }
  const fees: Partial<Record<Leg, OwedFee>> = {}
  let books = state.books
  for (const [leg, fee] of Object.entries(owed.fees) as [Leg, OwedFee][]) {
    const read = io ? await readFee(io[leg], fee).catch(fail) : undefined
    if (typeof read === 'string') {
      books = {
        ...books,
        [leg]: bookLateVenueFee(
          books?.[leg] ?? EMPTY_LEG_BOOK,
          read,
          fee.unknownBefore,
        ),
      }
    } else {
      if (read === null) errors.push(`${leg} leg fee: not in the fills yet`)
      fees[leg] = fee
    }
  }
  return {
    patch,
    state: books === state.books ? state : { ...state, books },
    rest: { ...owed, fundingOn, fees, tries: owed.tries + 1 },
    errors,
  }
}

/** The fee one close order paid; null while its venue does not show it. */
async function readFee(io: LegIo, fee: OwedFee): Promise<string | null> {
  const read = io.adapter.orderFees
  if (!read) return null
  return read.call(io.adapter, io.cred, io.market, fee.order)
}

/** The task's error once its settlement is given up. */
function givenUp(rest: CloseSettlement, since: string | null): string {
  const days = SETTLE_GIVE_UP_MS / 86_400_000
  const lost = [
    ...(rest.fundingOn
      ? [`funding paid since ${since ?? 'the open'} (not in fundingUsd)`]
      : []),
    ...(Object.keys(rest.fees).length > 0
      ? ["the close's venue fees (unknown)"]
      : []),
  ]
  return `not read from the venues within ${days} days of the close: ${lost.join('; ')}`
}
