import { sendWindowOf } from '../domain/sendWindow.js'
import type { Leg, LegOrder, TaskOperation } from '../domain/taskEngineState.js'
import { CredentialUnavailableError } from '../errors/worker.js'
import { dec } from '../util/decimal.js'
import { msToIso } from '../util/time.js'
import { withLegVenueFees } from './legVenueFees.js'
import { credentialErrorText } from './resolveCredential.js'
import { retryNote } from './retryNote.js'
import {
  allDone,
  CLOSE_SLIPPAGE_BPS,
  type LegIo,
  legIo,
  lookUpLegs,
  marketOf,
  newLegOrder,
  sendLegs,
  venueOf,
} from './taskLegOrders.js'
import { readMarkets, withLegLocks } from './taskMarkets.js'
import { bookFills, bookLegBooks } from './taskOperations.js'
import { RETRY_MS, type TaskStep } from './taskStep.js'

const LEGS: readonly Leg[] = ['long', 'short']

type Reachable = Partial<Record<Leg, LegIo>>
type Lost = readonly (readonly [Leg, CredentialUnavailableError])[]
/** What the failed task's error reports beside the legs still held. */
interface Notes {
  /** legs closed here, and operations whose outcome is unknown */
  readonly said: string[]
  /** why a reachable leg's close left it open */
  readonly whyOpen: Partial<Record<Leg, string>>
}

/**
 * Ends a task one of whose venues it can no longer use (a credential that
 * does not decrypt, a binding gone): only a rebind can change that, so
 * retrying would wait forever. What the task can still reach is settled
 * first: an operation in flight is looked up there (nothing of it is sent
 * again), and, unless that operation was a close, the legs it holds on
 * reachable venues are closed. Then it fails with why and with what is
 * left open at the venue it cannot reach.
 * @returns when to look again (a lookup or close still pending), or null
 * once the task has failed
 */
export async function abandonTask(
  step: TaskStep,
  cause: CredentialUnavailableError,
): Promise<number | null> {
  const { io, lost } = await reachableLegs(step)
  // usable again (rebound since): the next step carries on as usual
  if (lost.length === 0) return step.now
  const notes: Notes = { said: [], whyOpen: {} }
  const op = step.state.op
  if (op && !(await settleOperation(step, op, io, notes))) {
    return step.now + RETRY_MS
  }
  if (op?.kind !== 'close') {
    const next = await closeReachable(step, io, cause, notes)
    if (next !== null) return next
  }
  await step.save({
    status: 'failed',
    engineState: { ...step.state, op: null },
    error: failureText(step, lost, notes),
  })
  return null
}

/** Each leg's io where its credential resolves; the others, with why. */
async function reachableLegs(
  step: TaskStep,
): Promise<{ io: Reachable; lost: Lost }> {
  const io: Reachable = {}
  const lost: [Leg, CredentialUnavailableError][] = []
  for (const l of LEGS) {
    try {
      io[l] = await legIo(step.deps, step.task, l, step.now)
    } catch (err) {
      if (!(err instanceof CredentialUnavailableError)) throw err
      lost.push([l, err])
    }
  }
  return { io, lost }
}

/**
 * Finishes what can be known of an operation in flight and books its
 * fills: a reachable leg is looked up (one the venue never got is not
 * sent again); a leg on a lost venue cannot be, and is noted.
 * @returns false when a reachable leg must be looked at again
 */
async function settleOperation(
  step: TaskStep,
  op: TaskOperation,
  io: Reachable,
  notes: Notes,
): Promise<boolean> {
  const looked = await lookUpLegs(op, io, step.now)
  if (looked.waiting.length > 0) {
    await step.save({ error: retryNote(looked.waiting) })
    return false
  }
  const legs: Partial<Record<Leg, LegOrder>> = {}
  for (const l of LEGS) {
    const order = looked.op.legs[l]
    if (!order) continue
    if (order.state === 'done') {
      legs[l] = order
    } else if (!io[l]) {
      legs[l] = { ...order, state: 'done', failed: 'outcome unknown' }
      notes.said.push(
        `its ${l} leg order ${order.clientOrderId} on ${venueOf(step.task, l)} was in flight and may have filled: check it at the venue`,
      )
    } else if (looked.resend.includes(l)) {
      legs[l] = { ...order, state: 'done', failed: 'not sent' }
    } else {
      // still live at the venue (an IOC about to end)
      return false
    }
  }
  await step.save({
    ...bookFills(step.task, { ...op, legs }),
    engineState: {
      ...step.state,
      op: null,
      books: bookLegBooks(step.task, { ...op, legs }),
    },
  })
  return true
}

/**
 * Closes, once, the legs the task holds on venues it can reach.
 * @returns null when nothing is left in flight, else when to look again
 */
async function closeReachable(
  step: TaskStep,
  io: Reachable,
  cause: CredentialUnavailableError,
  notes: Notes,
): Promise<number | null> {
  const task = step.task
  const held = (l: Leg) => (l === 'long' ? task.longSize : task.shortSize)
  const open = LEGS.filter((l) => io[l] && dec(held(l) ?? '0').gt(0))
  if (open.length === 0) return null
  const m = await readMarkets(step, 'order')
  const seq = step.state.seq + 1
  const legs: Partial<Record<Leg, LegOrder>> = {}
  for (const l of open) {
    const side = l === 'long' ? 'short' : 'long'
    const size = held(l) ?? '0'
    legs[l] = {
      ...newLegOrder(task, seq, l, side, size, true, m[l], CLOSE_SLIPPAGE_BPS),
      sendBy: msToIso(step.now + sendWindowOf(io[l]?.adapter ?? {})),
    }
  }
  const op: TaskOperation = {
    kind: 'close',
    seq,
    startedAt: msToIso(step.now),
    legs,
  }
  return withLegLocks(step, async () => {
    await step.save({
      status: 'closing',
      closeReason: task.closeReason ?? cause.code,
      engineState: { ...step.state, op, seq },
    })
    const driven = await sendLegs(op, io, open, () => step.deps.clock.now())
    if (!allDone(driven.op)) {
      // looked up by the next step, which gets here through abandonTask
      await step.save({
        engineState: { ...step.state, op: driven.op },
        error:
          driven.unreachable.length > 0
            ? retryNote(driven.unreachable)
            : step.task.error,
      })
      return step.now + RETRY_MS
    }
    const done = await withLegVenueFees(driven.op, io)
    const booked = bookFills(step.task, done)
    await step.save({
      ...booked,
      engineState: {
        ...step.state,
        op: null,
        books: bookLegBooks(step.task, done),
      },
    })
    for (const l of open) {
      const left = l === 'long' ? booked.longSize : booked.shortSize
      if (dec(left).isZero()) {
        notes.said.push(`the ${l} leg on ${venueOf(task, l)} was closed`)
      } else {
        notes.whyOpen[l] = driven.op.legs[l]?.failed ?? 'partly filled'
      }
    }
    return null
  })
}

/** Why the task failed, and what it leaves open where. */
function failureText(step: TaskStep, lost: Lost, notes: Notes): string {
  const task = step.task
  const parts = [...new Set(lost.map(([, err]) => credentialErrorText(err)))]
  for (const l of LEGS) {
    const size = (l === 'long' ? task.longSize : task.shortSize) ?? '0'
    if (dec(size).isZero()) continue
    const where = `${size} ${marketOf(task, l)} on ${venueOf(task, l)}`
    const why = notes.whyOpen[l]
    parts.push(
      lost.some(([x]) => x === l)
        ? `the ${l} leg (${where}) is still open at the venue and no longer managed by this task`
        : `the ${l} leg (${where}) is still open${why ? ` (close: ${why})` : ''}: close it at the venue`,
    )
  }
  return [...parts, ...notes.said].join('; ')
}
