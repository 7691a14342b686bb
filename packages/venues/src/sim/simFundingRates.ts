import { decString } from '@dn/core'
import { advanceSim } from './advanceSim.js'
import { fundingRate } from './fundingRate.js'
import { marketOf, type SimState } from './simState.js'

/** One settled funding period of a market. */
export interface SimFundingRate {
  /** the settlement, Unix ms */
  readonly time: number
  /** the hourly rate of that period */
  readonly rate: string
}

/**
 * The market's settled funding rates with settlement time in [fromMs,
 * toMs] and not after now, oldest first, at most `limit`: the rates are a
 * pure function of seed and period (`fundingRate.ts`), so any past period
 * can be told.
 */
export function simFundingRates(
  state: SimState,
  symbol: string,
  fromMs: number,
  toMs: number,
  limit: number,
): SimFundingRate[] {
  advanceSim(state)
  const m = marketOf(state, symbol)
  const interval = state.fundingIntervalMs
  const end = Math.min(toMs, state.clock.now())
  const out: SimFundingRate[] = []
  let period = Math.max(0, Math.ceil(fromMs / interval) - 1)
  for (; out.length < limit; period++) {
    const time = (period + 1) * interval
    if (time > end) break
    out.push({
      time,
      rate: decString(fundingRate(m.market, state.seed, period)),
    })
  }
  return out
}
