import { reducesNet } from '../domain/positionLedger.js'
import type { Leg } from '../domain/taskEngineState.js'
import type { MarketRules } from '../ports/marketData.js'
import { dec, decString } from '../util/decimal.js'
import { legHolding, legMarket, storeHolders } from './accountMarketLedger.js'
import { readLegNow } from './confirmRunningVerdict.js'
import { externalChangeNote } from './externalChange.js'
import type { TaskStep } from './taskStep.js'

/** The order that takes a leg out of (part of) its position. */
export interface LegExit {
  /** base to trade, on the venue's step; '0': nothing left to trade */
  readonly size: string
  /** the order only reduces the venue's net: sent reduce-only */
  readonly reduceOnly: boolean
  /** why less than asked is traded (the leg's part of the net is smaller) */
  readonly note: string | null
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
  rules: MarketRules,
): Promise<LegExit> {
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
  return {
    size: decString(size),
    reduceOnly: size.gt(0) && reducesNet(side, decString(size), net),
    note: size.lt(wanted)
      ? externalChangeNote(m, leg, reading, decString(size), wanted)
      : null,
  }
}
