import type { TaskRecord } from '../domain/task.js'
import {
  EMPTY_ENGINE_STATE,
  type Leg,
  type TaskEngineState,
} from '../domain/taskEngineState.js'
import type { VenueId } from '../domain/venue.js'
import type { MarketQuote } from '../ports/marketData.js'
import type { TaskPatch } from '../ports/store.js'
import type { VenuePosition } from '../ports/venueAdapter.js'
import { type Decimal, dec } from '../util/decimal.js'
import { msToIso } from '../util/time.js'
import { clearRetryNote } from './retryNote.js'
import { legSize } from './taskLegOrders.js'
import { fundingApyPct, shownApy } from './taskMarkets.js'

const LEGS: readonly Leg[] = ['long', 'short']

/** One leg as the latest snapshots show it. */
export interface LegReading {
  readonly quote: MarketQuote
  /** the account's position in the leg's market; undefined when it has none */
  readonly position: VenuePosition | undefined
  /**
   * the leg's own part of that position (≥ 0) from its account market's
   * ledger, where the venue's net differs from what the leg alone would
   * hold (`accountMarketLedger`); undefined: the net is the leg's own
   */
  readonly held?: string | undefined
}

export type RunningCloseReason =
  | 'leg_liquidated'
  | 'liquidation_protection'
  | 'size_mismatch'
  | 'funding_below_min'

/** What a running task shows once evaluated, and whether it must close. */
export interface RunningVerdict {
  /** the fields the task shows, from the snapshots */
  readonly shows: Required<
    Pick<
      TaskPatch,
      | 'longPrice'
      | 'shortPrice'
      | 'longLeverage'
      | 'shortLeverage'
      | 'longMarginMode'
      | 'shortMarginMode'
      | 'error'
    >
  >
  /** the engine state's monitor fields, from the snapshots */
  readonly state: Required<
    Pick<TaskEngineState, 'nearThreshold' | 'fundingBelowSince' | 'fundingApy'>
  >
  /** the first close rule that holds, in order of urgency; null when none */
  readonly close: RunningCloseReason | null
  /** with `leg_liquidated`: the leg whose position is gone */
  readonly liquidatedLeg: Leg | null
  /**
   * why a leg holds less than its task booked, where its account market's
   * ledger found a change made outside dn (`externalChangeNote`)
   */
  readonly evidence?: LegChange | undefined
}

/** Where a change made outside dn took a leg, and the task's note of it. */
export interface LegChange {
  readonly venue: VenueId
  readonly market: string
  /** `external change: …` (`externalChangeNote`) */
  readonly note: string
}

/**
 * A running task against the latest market and account snapshots: pure
 * CPU, no I/O, so one worker can evaluate thousands of tasks a second. The
 * claimed monitor step and the monitor sweep both decide with it.
 */
export function evaluateRunningTask(
  task: TaskRecord,
  legs: Readonly<Record<Leg, LegReading>>,
  now: number,
  fundingGraceMs: number,
): RunningVerdict {
  const state = task.engineState
  const readings = ruleReadings(task, legs)
  const apy = fundingApyPct(legs.long.quote, legs.short.quote)
  const below = task.autoClose && apy.lt(task.minFundingApy)
  const fundingApy = shownApy(apy)
  const fundingBelowSince = below
    ? (state?.fundingBelowSince ?? msToIso(now))
    : null
  const shows = {
    longPrice: legs.long.quote.mark,
    shortPrice: legs.short.quote.mark,
    longLeverage: legs.long.position?.leverage ?? task.longLeverage,
    shortLeverage: legs.short.position?.leverage ?? task.shortLeverage,
    longMarginMode: legs.long.position?.marginMode ?? task.longMarginMode,
    shortMarginMode: legs.short.position?.marginMode ?? task.shortMarginMode,
    // the snapshots reached every venue: a note of an earlier retry is gone
    error: clearRetryNote(task.error),
  }
  const verdict = (
    close: RunningCloseReason | null,
    liquidatedLeg: Leg | null = null,
  ): RunningVerdict => ({
    shows,
    state: {
      nearThreshold: nearAnyThreshold(task, readings),
      fundingBelowSince,
      fundingApy,
    },
    close,
    liquidatedLeg,
  })
  for (const l of LEGS) {
    if (dec(legSize(task, l)).gt(0) && heldSize(legs[l]).isZero()) {
      return verdict('leg_liquidated', l)
    }
  }
  if (
    task.liqProtectionPct !== null &&
    readings.liqDistancePct?.lt(task.liqProtectionPct)
  ) {
    return verdict('liquidation_protection')
  }
  if (
    task.sizeMismatchPct !== null &&
    readings.mismatchPct?.gt(task.sizeMismatchPct)
  ) {
    return verdict('size_mismatch')
  }
  if (
    fundingBelowSince !== null &&
    now - Date.parse(fundingBelowSince) >= fundingGraceMs
  ) {
    return verdict('funding_below_min')
  }
  return verdict(null)
}

/**
 * The fields that start the close a verdict calls for: the task goes to
 * `closing` for its reason, and a leg whose position is gone is booked at
 * zero (nothing is left there to close). Null when no rule holds.
 */
export function closeStart(
  task: TaskRecord,
  verdict: RunningVerdict,
): Pick<
  TaskPatch,
  'status' | 'closeReason' | 'longSize' | 'shortSize' | 'error'
> | null {
  if (verdict.close === null) return null
  const gone = verdict.liquidatedLeg
  return {
    status: 'closing',
    closeReason: task.closeReason ?? verdict.close,
    ...(verdict.evidence ? { error: verdict.evidence.note } : {}),
    ...(gone === 'long' ? { longSize: '0' } : {}),
    ...(gone === 'short' ? { shortSize: '0' } : {}),
  }
}

/**
 * The part of a verdict that differs from what the task shows now, as a
 * patch (engine state included); null when nothing it shows changed.
 */
export function changedShows(
  task: TaskRecord,
  verdict: RunningVerdict,
): Omit<TaskPatch, 'updatedAt'> | null {
  const patch: Record<string, unknown> = {}
  for (const [field, value] of Object.entries(verdict.shows)) {
    if (task[field as keyof TaskRecord] !== value) patch[field] = value
  }
  const state = task.engineState
  const near = verdict.state.nearThreshold === true
  if (
    (state?.nearThreshold === true) !== near ||
    (state?.fundingBelowSince ?? null) !== verdict.state.fundingBelowSince ||
    (state?.fundingApy ?? null) !== verdict.state.fundingApy
  ) {
    patch.engineState = {
      // a whole state: a partial one would read as a NaN operation seq
      ...(state ?? EMPTY_ENGINE_STATE),
      nearThreshold: near,
      fundingBelowSince: verdict.state.fundingBelowSince,
      fundingApy: verdict.state.fundingApy,
    }
  }
  return Object.keys(patch).length === 0 ? null : patch
}

/** What the leg holds at its venue: its ledger part, else the net's size. */
function heldSize(reading: LegReading): Decimal {
  if (reading.held !== undefined) return dec(reading.held)
  return reading.position ? dec(reading.position.size).abs() : dec(0)
}

/** How far a running task is from its close rules, in percent. */
interface RuleReadings {
  /** the nearest leg's liquidation, from its mark; null when none is known */
  readonly liqDistancePct: Decimal | null
  /** the legs' size difference over the larger; null when both are zero */
  readonly mismatchPct: Decimal | null
}

function ruleReadings(
  t: TaskRecord,
  legs: Readonly<Record<Leg, LegReading>>,
): RuleReadings {
  let liqDistancePct: Decimal | null = null
  for (const l of LEGS) {
    const liq = legs[l].position?.liquidationPrice
    if (!liq) continue
    const mark = dec(legs[l].quote.mark)
    // no distance to measure from a zero mark: the venue has no price
    if (mark.isZero()) continue
    const pct = mark.sub(liq).abs().div(mark).mul(100)
    if (liqDistancePct === null || pct.lt(liqDistancePct)) liqDistancePct = pct
  }
  // a leg the ledger found shrunk (a liquidation on a shared position)
  // counts as what it still holds
  const size = (l: Leg) => {
    const held = legs[l].held
    const recorded = dec(legSize(t, l))
    return held !== undefined && dec(held).lt(recorded) ? dec(held) : recorded
  }
  const a = size('long')
  const b = size('short')
  const big = a.gt(b) ? a : b
  return {
    liqDistancePct,
    mismatchPct: big.gt(0) ? a.sub(b).abs().div(big).mul(100) : null,
  }
}

/**
 * Within twice a rule's threshold: liquidation closer than twice the
 * protection distance, or legs apart by more than half the mismatch limit.
 */
function nearAnyThreshold(t: TaskRecord, r: RuleReadings): boolean {
  const liqNear =
    t.liqProtectionPct !== null &&
    r.liqDistancePct?.lt(dec(t.liqProtectionPct).mul(2)) === true
  const mismatchNear =
    t.sizeMismatchPct !== null &&
    r.mismatchPct?.gt(dec(t.sizeMismatchPct).div(2)) === true
  return liqNear || mismatchNear
}
