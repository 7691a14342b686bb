import { bookLegFill, EMPTY_LEG_BOOK } from '../domain/legBook.js'
import type { TaskRecord } from '../domain/task.js'
import {
  CLOSE_REFUSALS_MAX,
  type Leg,
  type LegOrder,
  type TaskEngineState,
  type TaskOperation,
} from '../domain/taskEngineState.js'
import { dec, decString } from '../util/decimal.js'
import { msToIso } from '../util/time.js'
import { keptAtClose } from './externalChange.js'
import { exitNotes, legExit, withLeftAtVenue } from './legExit.js'
import { settleAtClose } from './settleAtClose.js'
import { legSize, newLegOrder } from './taskLegOrders.js'
import { readMarkets } from './taskMarkets.js'
import { MONITOR_MS, type TaskStep } from './taskStep.js'

const LEGS: readonly Leg[] = ['long', 'short']

/** Signed change a filled leg order makes to that leg's (positive) size. */
function sizeChange(leg: Leg, order: LegOrder): string {
  const grows = (leg === 'long') === (order.side === 'long')
  return decString(grows ? dec(order.filledBase) : dec(order.filledBase).neg())
}

function failures(op: TaskOperation): string {
  return LEGS.filter((l) => op.legs[l]?.failed)
    .map((l) => `${l} leg: ${op.legs[l]?.failed}`)
    .join('; ')
}

/** Leg sizes and entry prices once an operation's fills are booked. */
interface BookedFills {
  readonly longSize: string
  readonly shortSize: string
  readonly longEntry: string | null
  readonly shortEntry: string | null
}

/**
 * Books the fills of a finished operation's legs into the task's sizes;
 * an entry price is the weighted average over what was held and added.
 */
export function bookFills(t: TaskRecord, op: TaskOperation): BookedFills {
  const sizes: Record<Leg, string> = {
    long: t.longSize ?? '0',
    short: t.shortSize ?? '0',
  }
  const entries: Record<Leg, string | null> = {
    long: t.longEntry,
    short: t.shortEntry,
  }
  for (const l of LEGS) {
    const o = op.legs[l]
    if (!o || dec(o.filledBase).isZero()) continue
    const before = dec(sizes[l])
    const after = before.add(sizeChange(l, o))
    if (after.gt(before) && o.averagePrice) {
      const held = before.mul(entries[l] ?? o.averagePrice)
      entries[l] = decString(
        held
          .add(dec(o.filledBase).mul(o.averagePrice))
          .div(after)
          .toDecimalPlaces(8),
      )
    }
    sizes[l] = decString(after.lt(0) ? 0 : after)
  }
  return {
    longSize: sizes.long,
    shortSize: sizes.short,
    longEntry: entries.long,
    shortEntry: entries.short,
  }
}

/**
 * The legs' fill books (engine state `books`) once a finished operation's
 * fills are booked: each leg order against the size and entry the task
 * held before it (`bookLegFill`).
 */
export function bookLegBooks(
  t: TaskRecord,
  op: TaskOperation,
): NonNullable<TaskEngineState['books']> {
  const books = { ...t.engineState?.books }
  for (const l of LEGS) {
    const o = op.legs[l]
    if (!o || dec(o.filledBase).isZero() || o.averagePrice === null) continue
    books[l] = bookLegFill(books[l] ?? EMPTY_LEG_BOOK, {
      leg: l,
      grows: (l === 'long') === (o.side === 'long'),
      base: o.filledBase,
      price: o.averagePrice,
      builderFeeUsd: o.builderFeeUsd ?? '0',
      venueFeeUsd: o.venueFeeUsd ?? null,
      sizeBefore: (l === 'long' ? t.longSize : t.shortSize) ?? '0',
      entryBefore: l === 'long' ? t.longEntry : t.shortEntry,
    })
  }
  return books
}

/**
 * Books a finished operation's fills into the leg sizes and moves the task
 * on: open → running (or unwind the leg that filled when the other did
 * not), close → closed (or another close for what is left; a closed task
 * whose funding or fees its close could not read comes back for them,
 * `settleAtClose`), resize → running, unwind → failed.
 */
export async function completeOperation(
  step: TaskStep,
  op: TaskOperation,
): Promise<number | null> {
  const t = step.task
  const booked = bookFills(t, op)
  const sizes: Record<Leg, string> = {
    long: booked.longSize,
    short: booked.shortSize,
  }
  const state = { ...step.state, op: null, books: bookLegBooks(t, op) }
  const base = { ...booked, engineState: state }
  // the positions the API serves show these fills before the task says
  // it is running or closed (a caller waiting on it reads them next)
  await step.deps.refreshAccounts?.([
    { owner: t.owner, venue: t.longVenue },
    { owner: t.owner, venue: t.shortVenue },
  ])
  const failed = failures(op)
  switch (op.kind) {
    case 'open': {
      const filled = LEGS.filter((l) => dec(sizes[l]).gt(0))
      if (filled.length === 2) {
        await step.save({
          ...base,
          status: 'running',
          error: null,
          engineState: { ...state, fundingSince: msToIso(step.now) },
        })
        return step.now
      }
      if (filled.length === 0) {
        await step.save({
          ...base,
          status: 'failed',
          error: `open failed: ${failed}`,
        })
        return null
      }
      await step.save({
        ...base,
        // kept apart from `error`: a retry note may replace that meanwhile
        engineState: { ...state, openFailure: `open failed: ${failed}` },
        error: `open failed: ${failed}; unwinding the filled leg`,
      })
      return unwind(step, filled[0] as Leg)
    }
    case 'unwind': {
      const left = LEGS.filter((l) => dec(sizes[l]).gt(0))
      if (left.length > 0) {
        await step.save({
          ...base,
          error: `${openFailure(step)}; unwind incomplete (${failed}), retrying`,
        })
        return unwind(step, left[0] as Leg)
      }
      await step.save({
        ...base,
        status: 'failed',
        error: `${openFailure(step)}; the filled leg was unwound`,
      })
      return null
    }
    case 'close': {
      const left = LEGS.filter((l) => dec(sizes[l]).gt(0))
      if (left.length === 0) {
        const { retryAt, ...settled } = await settleAtClose(step, op, state)
        await step.save({
          ...base,
          ...settled,
          status: 'closed',
          error: keptAtClose(t.error),
        })
        return retryAt
      }
      // a failure that repeats is not sent every second: each next close
      // waits twice as long; after CLOSE_REFUSALS_MAX refusals in a row
      // the close stops until the owner asks again
      const refused = LEGS.some((l) => op.legs[l]?.refused === true)
      const refusals = refused ? (step.state.closeRefusals ?? 0) + 1 : 0
      const failures = failed ? (step.state.closeFailures ?? 0) + 1 : 0
      const engineState = {
        ...state,
        closeRefusals: refusals,
        closeFailures: failures,
      }
      if (refusals >= CLOSE_REFUSALS_MAX) {
        await step.save({
          ...base,
          engineState,
          error: closeStoppedNote(failed, refusals),
        })
        return step.now + CLOSE_STOPPED_RETRY_MS
      }
      const wait = closeRetryMs(failures)
      const times = (n: number) => `${n} ${n === 1 ? 'time' : 'times in a row'}`
      await step.save({
        ...base,
        engineState,
        error: failed
          ? `close incomplete (${failed}); ${refused ? `refused ${times(refusals)}` : `failed ${times(failures)}`}, tried again in ${wait / 1000} s`
          : null,
      })
      return step.now + wait
    }
    case 'resize':
      await step.save({
        ...base,
        status: 'running',
        resizeRequest: null,
        error: failed ? `resize incomplete: ${failed}` : null,
      })
      return step.now
  }
}

/**
 * How long a stopped close waits before it is tried once more by itself
 * (a margin shortage or a halt may pass); POST close tries at once.
 */
const CLOSE_STOPPED_RETRY_MS = 6 * 3_600_000

/** A stopped close's `error`: the venue's words and what to do. */
function closeStoppedNote(failed: string, refusals: number): string {
  return `close stopped: the venue refused it ${refusals} times in a row (${failed}); what is still open stays open at the venue (dn positions): close it there, or ask again with POST close (dn tasks close) once the cause is fixed; tried once more by itself in ${CLOSE_STOPPED_RETRY_MS / 3_600_000} h`
}

/** The longest a refused close waits before it is tried again. */
const CLOSE_RETRY_MAX_MS = 60_000

/**
 * When a close is tried again after `failures` closes in a row that left
 * a leg open: at the next monitor round when none did, then 1, 2, 4 … s,
 * at most CLOSE_RETRY_MAX_MS.
 */
function closeRetryMs(failures: number): number {
  return failures === 0
    ? MONITOR_MS
    : Math.min(CLOSE_RETRY_MAX_MS, MONITOR_MS * 2 ** (failures - 1))
}

/** Why the opening failed, as the partial opening saved it. */
function openFailure(step: TaskStep): string {
  return step.state.openFailure ?? 'open failed'
}

/**
 * A pending task whose opening filled one leg and not the other: the
 * filled leg is unwound. Called when that unwind could not start at once
 * (a venue unavailable) and the task is claimed again: opening it anew
 * would double the filled leg.
 * @returns null when no leg holds anything (nothing to unwind)
 */
export function unwindFilledLeg(step: TaskStep): Promise<number | null> | null {
  const t = step.task
  const filled = LEGS.find((l) => dec(legSize(t, l)).gt(0))
  return filled === undefined ? null : unwind(step, filled)
}

async function unwind(step: TaskStep, leg: Leg): Promise<number | null> {
  const m = await readMarkets(step)
  const seq = step.state.seq + 1
  const size = legSize(step.task, leg)
  // the filled leg's own part of the venue's net, reduce-only where that
  // reduces the net
  const exit = await legExit(step, leg, size, m[leg])
  if (dec(exit.size).isZero()) {
    const why = exitNotes(exit)
    await step.save({
      ...(leg === 'long' ? { longSize: '0' } : { shortSize: '0' }),
      status: 'failed',
      error: `${openFailure(step)}; ${why.length > 0 ? why.join('; ') : 'nothing was left to unwind'}`,
      engineState: withLeftAtVenue(step.state, { [leg]: exit }),
    })
    return null
  }
  const order = newLegOrder(
    step.task,
    seq,
    leg,
    leg === 'long' ? 'short' : 'long',
    exit.size,
    exit.reduceOnly,
    m[leg],
    500,
  )
  return step.startOperation('unwind', seq, { [leg]: order })
}
