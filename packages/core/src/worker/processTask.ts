import { ACCOUNT_BUSY, venueOutage } from '../domain/pendingReason.js'
import { sendWindowOf } from '../domain/sendWindow.js'
import type { TaskRecord, TaskStatus } from '../domain/task.js'
import {
  EMPTY_ENGINE_STATE,
  type Leg,
  type LegOrder,
  type TaskOperation,
} from '../domain/taskEngineState.js'
import {
  RequestBudgetError,
  UncertainSubmissionError,
  VenueUnavailableError,
} from '../errors/venue.js'
import { CredentialUnavailableError, FencedOutError } from '../errors/worker.js'
import { msToIso } from '../util/time.js'
import { abandonTask } from './abandonTask.js'
import { withLegVenueFees } from './legVenueFees.js'
import { pendingReasonPatch, recordPendingReason } from './pendingReasons.js'
import { reportWorkerEvent } from './reportWorkerEvent.js'
import { retryNote } from './retryNote.js'
import { settleClosedTask } from './settleClosedTask.js'
import {
  allDone,
  type LegIo,
  legIo,
  lookUpLegs,
  sendingLegs,
  sendLegs,
} from './taskLegOrders.js'
import { failedVenue, withLegLocks } from './taskMarkets.js'
import { completeOperation, unwindFilledLeg } from './taskOperations.js'
import { monitorTask, openTask, startClose, startResize } from './taskPhases.js'
import { RETRY_MS, type TaskStep } from './taskStep.js'
import type { WorkerDeps } from './workerDeps.js'

/**
 * Statuses the task worker claims only once a check is scheduled and due:
 * a closed task whose funding or fees are still to be read
 * (`settleClosedTask`).
 */
export const SCHEDULED_TASK_STATUSES: readonly TaskStatus[] = ['closed']

export { MONITOR_MS, RETRY_MS, type TaskStep } from './taskStep.js'

/**
 * Advances one claimed task. An operation in flight (its leg orders were
 * committed before sending) is finished first; otherwise the task's status
 * decides: open a pending task, monitor a running one, carry out a queued
 * close or resize, read what a closed one's close could not. Writes carry
 * the lease's fence; the lease is released with the time to look again.
 */
export async function processTask(
  deps: WorkerDeps,
  claimed: TaskRecord,
): Promise<TaskRecord> {
  let task = claimed
  let io: Record<Leg, LegIo> | undefined
  const step: TaskStep = {
    deps,
    now: deps.clock.now(),
    get task() {
      return task
    },
    get state() {
      return task.engineState ?? EMPTY_ENGINE_STATE
    },
    async save(patch, statuses) {
      const updated = await deps.store.tasks.update(
        task.id,
        { ...patch, updatedAt: msToIso(deps.clock.now()) },
        { fence: claimed.fence, status: statuses },
      )
      if (!updated) throw new FencedOutError(`task ${task.id}`)
      const from = task.status
      task = updated
      if (updated.status !== from) {
        reportWorkerEvent(deps, {
          type: 'transition',
          kind: 'task',
          id: updated.id,
          from,
          to: updated.status,
          ms: deps.clock.now() - step.now,
          error: updated.error,
        })
      }
      return updated
    },
    async io() {
      if (io) return io
      io = {
        long: await legIo(deps, task, 'long', step.now),
        short: await legIo(deps, task, 'short', step.now),
      }
      return io
    },
    startOperation: (kind, seq, legs) => startOperation(step, kind, seq, legs),
  }
  const next = await retryingOutages(step, async () => {
    try {
      return await advance(step)
    } catch (err) {
      // a venue the task cannot use any more: retrying cannot fix that
      if (err instanceof CredentialUnavailableError) {
        return abandonTask(step, err)
      }
      throw err
    }
  })
  const released = await step.save({
    leaseOwner: null,
    leaseExpiresAt: null,
    nextCheckAt: next === null ? null : msToIso(next),
  })
  // A close or resize requested while this step ran made the row due, and
  // the release above put its next look back (a running task's may be an
  // hour away): make it due again so the request is not left waiting.
  if (next !== null && requestArrived(claimed, released)) {
    return step.save({ nextCheckAt: msToIso(step.now) })
  }
  return released
}

/** Runs `fn`; a venue that cannot be reached makes it a retry shortly. */
async function retryingOutages(
  step: TaskStep,
  fn: () => Promise<number | null>,
): Promise<number | null> {
  try {
    return await fn()
  } catch (err) {
    if (
      err instanceof VenueUnavailableError ||
      err instanceof UncertainSubmissionError
    ) {
      // a pending task says which venue holds its opening back
      const pending =
        err instanceof VenueUnavailableError
          ? pendingReasonPatch(
              step,
              venueOutage(
                failedVenue(err),
                err instanceof RequestBudgetError,
                err.message,
              ),
            )
          : null
      await step.save({ error: retryNote(err), ...pending })
      return step.now + RETRY_MS
    }
    throw err
  }
}

/** The API queued a close or a resize after the row was claimed. */
function requestArrived(claimed: TaskRecord, now: TaskRecord): boolean {
  return (
    (now.closeRequestedAt !== null && claimed.closeRequestedAt === null) ||
    (now.resizeRequest !== null &&
      now.resizeRequest.requestedAt !== claimed.resizeRequest?.requestedAt)
  )
}

async function advance(step: TaskStep): Promise<number | null> {
  const op = step.state.op
  if (op) return resume(step, op)
  switch (step.task.status) {
    case 'pending':
      // an opening that filled one leg unwinds it, whatever held it back
      return unwindFilledLeg(step) ?? openTask(step)
    case 'running':
      if (step.task.closeRequestedAt !== null)
        return startClose(step, 'requested')
      return monitorTask(step)
    case 'resizing':
      if (step.task.closeRequestedAt !== null)
        return startClose(step, 'requested')
      return startResize(step)
    case 'closing':
      return startClose(step, step.task.closeReason ?? 'requested')
    case 'closed':
      return settleClosedTask(step)
    default:
      return null
  }
}

/**
 * Starts an operation: under the legs' account locks, persists it with its
 * leg orders (client ids included) before any is sent, then sends them.
 */
export async function startOperation(
  step: TaskStep,
  kind: TaskOperation['kind'],
  seq: number,
  legs: TaskOperation['legs'],
): Promise<number | null> {
  // both credentials first: an unusable one must not leave an operation
  // saved as maybe sent when nothing was
  const io = await step.io()
  // every leg is signed valid until `sendBy` (its venue's send window),
  // saved before it is sent
  const withDeadlines: Partial<Record<Leg, LegOrder>> = {}
  for (const l of Object.keys(legs) as Leg[]) {
    const order = legs[l]
    const sendBy = msToIso(step.now + sendWindowOf(io[l].adapter))
    if (order) withDeadlines[l] = { ...order, sendBy }
  }
  const op: TaskOperation = {
    kind,
    seq,
    startedAt: msToIso(step.now),
    legs: withDeadlines,
  }
  return withLegLocks(
    step,
    async () => {
      // an opening task is no longer held back. Only while the task is
      // still as this step found it: the API cancels a pending task in
      // one guarded write too (cancelTask), so either the cancel lands
      // and nothing is sent, or the operation does and the cancel is
      // refused; never a cancelled task with orders at the venues
      await step.save(
        { engineState: { ...step.state, op, seq, pendingReason: null } },
        [step.task.status],
      )
      return resume(step, op, true)
    },
    () => recordPendingReason(step, ACCOUNT_BUSY),
  )
}

/** Sends (or looks up) the legs of an operation and completes it. */
export async function resume(
  step: TaskStep,
  op: TaskOperation,
  fresh = false,
): Promise<number | null> {
  const io = await step.io()
  let current = op
  let toSend = sendingLegs(op)
  let waiting: string[] = []
  if (!fresh) {
    const looked = await lookUpLegs(op, io, step.now)
    current = looked.op
    toSend = looked.resend
    waiting = looked.waiting
    if (toSend.length > 0) {
      // the new deadlines are saved before anything is sent with them
      await step.save({ engineState: { ...step.state, op: current } })
    }
  }
  const sendAt = step.deps.clock.now()
  const driven = await sendLegs(current, io, toSend, () =>
    step.deps.clock.now(),
  )
  if (fresh && op.kind === 'open')
    reportOpeningSubmits(step, driven.op, toSend, sendAt)
  const unreachable = [...waiting, ...driven.unreachable]
  await step.save({
    engineState: { ...step.state, op: driven.op },
    error: unreachable.length > 0 ? retryNote(unreachable) : step.task.error,
  })
  if (!allDone(driven.op)) return step.now + RETRY_MS
  return completeOperation(step, await withLegVenueFees(driven.op, io))
}

/**
 * Accept → venue of an opening's legs: from the task's acceptance to the
 * first send of each leg that reached its venue (a leg not sent has its
 * `sendBy` cleared and is not counted; a resend is not a first send).
 */
function reportOpeningSubmits(
  step: TaskStep,
  op: TaskOperation,
  sent: readonly Leg[],
  sendAt: number,
): void {
  for (const leg of sent) {
    const order = op.legs[leg]
    if (!order || (order.sendBy === null && order.state !== 'done')) continue
    reportWorkerEvent(step.deps, {
      type: 'venueSubmit',
      kind: 'task',
      id: step.task.id,
      venue: leg === 'long' ? step.task.longVenue : step.task.shortVenue,
      acceptToVenueMs: sendAt - Date.parse(step.task.createdAt),
    })
  }
}
