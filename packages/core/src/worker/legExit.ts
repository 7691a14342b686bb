import { belowVenueMinimum } from '../domain/orderMinimum.js'
import { reducesNet } from '../domain/positionLedger.js'
import type { Leg, TaskEngineState } from '../domain/taskEngineState.js'
import type { MarketQuote, MarketRules } from '../ports/marketData.js'
import { dec, decString } from '../util/decimal.js'
import { legHolding, legMarket, storeHolders } from './accountMarketLedger.js'
import { readLegNow } from './confirmRunningVerdict.js'
import { externalChangeNote, leftAtVenueNote } from './externalChange.js'
import type { TaskStep } from './taskStep.js'

/** The order that takes a leg out of (part of) its position. */
export interface LegExit {
  /** base to trade, on the venue's step; '0': nothing left to trade */
  readonly size: string
  /** the order only reduces the venue's net: sent reduce-only */
  readonly reduceOnly: boolean
  /** why less than asked is traded (the leg's part of the net is smaller) */
  readonly note: string | null
  /**
   * base of the leg's part left at the venue, booked nowhere: too small
   * for an order of its own there, and one that does not reduce the net
   * (which venues take below their minimum) grows another holder's side
   */
  readonly left?: { readonly base: string; readonly note: string } | undefined
}

/**
 * How much of `wanted` a leg can give back, read from its account market's
 * ledger against the venue's net read now: at most the leg's own part of
 * the net (what another holder holds there is not the leg's to trade, and
 * what a liquidation took is gone), on the venue's step. Reduce-only only
 * where the order reduces the net: a leg whose net another holder turned
 * the other way trades without it, and a venue never refuses it for that.
 */
export async function legExit(
  step: TaskStep,
  leg: Leg,
  wanted: string,
  market: { readonly rules: MarketRules; readonly quote: MarketQuote },
): Promise<LegExit> {
  const { rules } = market
  const { task, deps } = step
  const io = (await step.io())[leg]
  const position = await readLegNow(io.adapter, io.cred, io.market)
  const net = position?.size ?? '0'
  const m = legMarket(task, leg)
  const holders = await storeHolders(deps)(m)
  const { held, reading } = legHolding(task, leg, holders, net)
  const most = dec(held).lt(wanted) ? dec(held) : dec(wanted)
  const size = most.div(rules.sizeStep).floor().mul(rules.sizeStep)
  const side = leg === 'long' ? 'short' : 'long'
  const reduceOnly = size.gt(0) && reducesNet(side, decString(size), net)
  const note = size.lt(wanted)
    ? externalChangeNote(m, leg, reading, decString(size), wanted)
    : null
  if (
    size.gt(0) &&
    !reduceOnly &&
    belowVenueMinimum(rules, size, market.quote.mark)
  ) {
    // the venue would refuse it every time: not sent
    const base = decString(size)
    return {
      size: '0',
      reduceOnly: false,
      note,
      left: { base, note: leftAtVenueNote(m, leg, base, market.quote.mark) },
    }
  }
  return { size: decString(size), reduceOnly, note }
}

const LEGS: readonly Leg[] = ['long', 'short']

/** What an exit says about the leg: an external change, a part left. */
export function exitNotes(exit: LegExit | undefined): string[] {
  return [exit?.note, exit?.left?.note].filter(
    (n): n is string => typeof n === 'string',
  )
}

/** The engine state with what the legs' exits left at their venues. */
export function withLeftAtVenue(
  state: TaskEngineState,
  exits: Partial<Record<Leg, LegExit>>,
): TaskEngineState {
  const left = { ...state.leftAtVenue }
  for (const l of LEGS) {
    const base = exits[l]?.left?.base
    if (base !== undefined) left[l] = base
  }
  return Object.keys(left).length === 0
    ? state
    : { ...state, leftAtVenue: left }
}
