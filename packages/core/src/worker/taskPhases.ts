import { commonStep } from '../commands/marketChecks.js'
import { orderMinimumUsd } from '../domain/orderMinimum.js'
import { type OrderPlan, planOrder } from '../domain/planOrder.js'
import type { Leg, LegOrder } from '../domain/taskEngineState.js'
import type { MarketQuote, MarketRules } from '../ports/marketData.js'
import { type Decimal, dec, decString } from '../util/decimal.js'
import { msToIso, nextHourAfter } from '../util/time.js'
import { legMarket, storeHolders } from './accountMarketLedger.js'
import { confirmRunningVerdict, readLegNow } from './confirmRunningVerdict.js'
import { closeStart } from './evaluateRunningTask.js'
import { reportExternalChange } from './externalChange.js'
import { exitNotes, type LegExit, legExit, withLeftAtVenue } from './legExit.js'
import { openingGate } from './openingGate.js'
import { recordPendingReason } from './pendingReasons.js'
import { bookFunding, FUNDING_READ_LAG_MS } from './taskFunding.js'
import {
  CLOSE_SLIPPAGE_BPS,
  marketOf,
  newLegOrder,
  TASK_SLIPPAGE_BPS,
} from './taskLegOrders.js'
import { fundingApyPct, readMarkets, shownApy } from './taskMarkets.js'
import { MONITOR_MS, type TaskStep } from './taskStep.js'
import { workerApiKey } from './workerDeps.js'

const LEGS: readonly Leg[] = ['long', 'short']
/** A pending task whose entry rules are not met looks again after this. */
const ENTRY_RECHECK_MS = 5_000

/** pending → open both legs at one base size both venues accept. */
export async function openTask(step: TaskStep): Promise<number | null> {
  const { deps, task, now } = step
  const key = await workerApiKey(deps, task.apiKeyId)
  if (!key || key.revokedAt !== null) {
    await step.save({
      status: 'failed',
      error: 'the API key was revoked before the task opened',
    })
    return null
  }
  // a venue it cannot use fails the task here (processTask's abandonTask),
  // before any market is read
  await step.io()
  const m = await readMarkets(step, 'order')
  const step_ = commonStep(m.long.rules.sizeStep, m.short.rules.sizeStep)
  const high = dec(m.long.quote.mark).gt(m.short.quote.mark)
    ? m.long.quote.mark
    : m.short.quote.mark
  const plans = {} as Record<Leg, OrderPlan>
  for (const leg of LEGS) {
    // one base size for both legs: the USD size at the higher mark, on
    // both venues' steps; each leg capped at its own mark
    plans[leg] = planOrder(
      { ...m[leg].rules, sizeStep: step_ },
      m[leg].quote,
      {
        sizeBase: dec(task.sizeUsd).div(high),
        side: leg,
        limitPrice: m[leg].quote.mark,
        slippageBps: 0,
      },
      key.maxSizeUsd,
    )
  }
  const base = plans.long.size
  const problem = sizingProblem(plans, m, key.maxSizeUsd)
  if (problem) {
    await step.save({ status: 'failed', error: problem })
    return null
  }
  const held = openingGate(task, { long: m.long.quote, short: m.short.quote })
  if (held !== null) {
    await recordPendingReason(
      step,
      held,
      shownApy(fundingApyPct(m.long.quote, m.short.quote)),
    )
    return now + ENTRY_RECHECK_MS
  }
  const size = decString(base)
  const seq = step.state.seq + 1
  return step.startOperation('open', seq, {
    long: newLegOrder(
      task,
      seq,
      'long',
      'long',
      size,
      false,
      m.long,
      TASK_SLIPPAGE_BPS,
    ),
    short: newLegOrder(
      task,
      seq,
      'short',
      'short',
      size,
      false,
      m.short,
      TASK_SLIPPAGE_BPS,
    ),
  })
}

function sizingProblem(
  plans: Record<Leg, OrderPlan>,
  m: Record<Leg, { rules: MarketRules; quote: MarketQuote }>,
  maxSizeUsd: string,
): string | null {
  for (const leg of LEGS) {
    const { rules } = m[leg]
    const plan = plans[leg]
    const base = plan.size.toFixed()
    const notional = plan.riskUsd
    const minUsd = orderMinimumUsd(rules)
    if (
      dec(base).isZero() ||
      dec(base).lt(rules.minBase) ||
      notional.lt(minUsd)
    ) {
      return `at the fresh mark the ${leg} leg would be ${base} ${rules.symbol} (USD ${decString(notional.toDecimalPlaces(2))}), below the ${rules.venue} minimum`
    }
    if (plan.problem === 'exceeds_cap') {
      return `at the fresh mark the ${leg} leg is USD ${decString(notional.toDecimalPlaces(2))}, above the key's maxSizeUsd ${maxSizeUsd}`
    }
  }
  return null
}

/**
 * Queues the IOC orders that bring both legs to zero: each leg trades its
 * own part of its account market's net (`legExit`); a leg with nothing
 * left there is booked at zero at once, with a note.
 */
export async function startClose(
  step: TaskStep,
  reason: string,
): Promise<number | null> {
  const { task } = step
  if (task.status !== 'closing') {
    await step.save({
      status: 'closing',
      closeReason: task.closeReason ?? reason,
    })
  }
  const booked: Record<Leg, string> = {
    long: task.longSize ?? '0',
    short: task.shortSize ?? '0',
  }
  const open = LEGS.filter((l) => dec(booked[l]).gt(0))
  const m = open.length === 0 ? null : await readMarkets(step, 'order')
  const exits: Partial<Record<Leg, LegExit>> = {}
  for (const l of open) {
    exits[l] = await legExit(step, l, booked[l], (m as Markets)[l])
  }
  const notes = open.flatMap((l) => exitNotes(exits[l]))
  for (const l of open) {
    const note = exits[l]?.note
    if (note) {
      const { venue, market } = legMarket(task, l)
      reportExternalChange(step.deps, task.id, { venue, market, note })
    }
  }
  const left = open.filter((l) => dec(exits[l]?.size ?? '0').gt(0))
  if (notes.length > 0) {
    // what the legs no longer hold at the venues is not theirs to close
    await step.save({
      longSize: exits.long?.size ?? task.longSize,
      shortSize: exits.short?.size ?? task.shortSize,
      error: notes.join('; '),
      engineState: withLeftAtVenue(step.state, exits),
    })
  }
  if (left.length === 0) {
    await step.save({
      status: 'closed',
      engineState: { ...step.state, op: null },
      error: notes.length > 0 ? notes.join('; ') : null,
    })
    return null
  }
  const seq = step.state.seq + 1
  const legs: Partial<Record<Leg, LegOrder>> = {}
  for (const l of left) {
    const exit = exits[l] as LegExit
    legs[l] = newLegOrder(
      task,
      seq,
      l,
      l === 'long' ? 'short' : 'long',
      exit.size,
      exit.reduceOnly,
      (m as Markets)[l],
      CLOSE_SLIPPAGE_BPS,
    )
  }
  return step.startOperation('close', seq, legs)
}

type Markets = Awaited<ReturnType<typeof readMarkets>>

/** Moves each leg toward its total base target. */
export async function startResize(step: TaskStep): Promise<number | null> {
  const { task, now, deps } = step
  const req = task.resizeRequest
  const targets: Record<Leg, string | null> = {
    long: req?.longTargetBase ?? null,
    short: req?.shortTargetBase ?? null,
  }
  const m = await readMarkets(step, 'order')
  const key = await workerApiKey(deps, task.apiKeyId)
  const seq = step.state.seq + 1
  const legs: Partial<Record<Leg, LegOrder>> = {}
  for (const l of LEGS) {
    const target = targets[l]
    if (target === null) continue
    // the cap holds the position a target asks for, at the mark
    const at = (sizeBase: Decimal | string) =>
      planOrder(
        m[l].rules,
        m[l].quote,
        { sizeBase, side: l, limitPrice: m[l].quote.mark, slippageBps: 0 },
        key?.maxSizeUsd ?? '0',
      )
    if (!key || at(target).problem === 'exceeds_cap') {
      await step.save({
        status: 'running',
        resizeRequest: null,
        error: `resize not done: the ${l} target exceeds the key's cap at the fresh mark`,
      })
      return now + MONITOR_MS
    }
    const current = dec((l === 'long' ? task.longSize : task.shortSize) ?? '0')
    // the order is the difference, on the venue step
    const delta = at(dec(target).sub(current).abs()).size
    if (delta.isZero()) continue
    const grow = dec(target).gt(current)
    const side = grow === (l === 'long') ? 'long' : 'short'
    // a shrink gives back only the leg's own part of the venue's net
    const exit = grow
      ? { size: decString(delta), reduceOnly: false }
      : await legExit(step, l, decString(delta), m[l])
    if (dec(exit.size).isZero()) continue
    legs[l] = newLegOrder(
      task,
      seq,
      l,
      side,
      exit.size,
      exit.reduceOnly,
      m[l],
      TASK_SLIPPAGE_BPS,
    )
  }
  if (Object.keys(legs).length === 0) {
    await step.save({ status: 'running', resizeRequest: null })
    return now + MONITOR_MS
  }
  return step.startOperation('resize', seq, legs)
}

/** A running task's accounts are read at least this often. */
export const POSITIONS_MAX_AGE_MS = 10_000
/** ... and this often when the last round found it near a threshold. */
export const NEAR_THRESHOLD_MAX_AGE_MS = 2_000
/**
 * How old the positions a claimed running task's step reads may be. That
 * step books funding when a settlement has passed: positions only share a
 * payment out pro rata and feed an evaluation the sweep repeats every
 * second. On the hour every task's step comes due at once; reading each
 * account afresh then spent the whole routine budget (the scale bench).
 */
const CLAIMED_POSITIONS_MAX_AGE_MS = 60_000

/**
 * A running task, claimed: refresh prices (from the venue's shared market
 * snapshot), leverage and margin modes (from its accounts' shared
 * positions), book funding once a settlement has passed, then apply the
 * close rules (`evaluateRunningTask`). Between claims the monitor sweep
 * evaluates it without a lease; it is claimed again when funding is next
 * due, or at once when the sweep finds a close rule holding.
 */
export async function monitorTask(step: TaskStep): Promise<number | null> {
  const { deps, task, now } = step
  const io = await step.io()
  const m = await readMarkets(step, 'order')
  const near = step.state.nearThreshold === true
  const positions = await Promise.all(
    LEGS.map(async (l) =>
      (
        await io[l].adapter.positions(io[l].cred, {
          maxAgeMs: near
            ? NEAR_THRESHOLD_MAX_AGE_MS
            : CLAIMED_POSITIONS_MAX_AGE_MS,
          priority: near ? 'urgent' : 'routine',
          budgetFallbackMs: CLAIMED_POSITIONS_MAX_AGE_MS,
        })
      ).find((p) => p.market === marketOf(task, l)),
    ),
  )
  const checkAt = step.state.fundingCheckAt
  const fundingDue = !checkAt || now >= Date.parse(checkAt)
  const booked = fundingDue
    ? await bookFunding(
        step,
        { long: task.longSize, short: task.shortSize },
        { long: positions[0]?.size, short: positions[1]?.size },
      )
    : null
  const nextFunding = Math.min(
    ...LEGS.map((l) => m[l].quote.nextFundingAt ?? nextHourAfter(now)),
  )
  const fundingCheckAt = fundingDue
    ? msToIso(Math.max(nextFunding, now) + FUNDING_READ_LAG_MS)
    : (checkAt as string)
  const [longPos, shortPos] = positions
  const verdict = await confirmRunningVerdict(
    task,
    {
      long: { quote: m.long.quote, position: longPos },
      short: { quote: m.short.quote, position: shortPos },
    },
    now,
    deps.fundingGraceMs,
    {
      readNow: (l) => readLegNow(io[l].adapter, io[l].cred, marketOf(task, l)),
      holders: (l) => storeHolders(deps)(legMarket(task, l)),
    },
  )
  await step.save({
    ...verdict.shows,
    ...(booked ? { fundingUsd: booked.fundingUsd } : {}),
    engineState: {
      ...step.state,
      ...verdict.state,
      ...(booked ? { fundingSince: booked.fundingSince } : {}),
      fundingCheckAt,
    },
  })
  const closing = closeStart(step.task, verdict)
  if (closing !== null && verdict.evidence)
    reportExternalChange(deps, task.id, verdict.evidence)
  if (closing !== null && verdict.close !== null) {
    await step.save(closing)
    return startClose(step, verdict.close)
  }
  return Date.parse(fundingCheckAt)
}
