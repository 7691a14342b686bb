import {
  fundingBelowMin,
  type PendingReason,
  spreadAboveMax,
} from '../domain/pendingReason.js'
import type { TaskRecord } from '../domain/task.js'
import type { MarketQuote } from '../ports/marketData.js'
import { type Decimal, dec } from '../util/decimal.js'
import { fundingApyPct } from './taskMarkets.js'

/** The legs' marks apart, in basis points of the lower one. */
function spreadBps(long: MarketQuote, short: MarketQuote): Decimal {
  const a = dec(long.mark)
  const b = dec(short.mark)
  return a
    .sub(b)
    .abs()
    .div(a.lt(b) ? a : b)
    .mul(10_000)
}

/**
 * The entry rules of a pending task against fresh quotes: with
 * `autoClose`, the pair's funding APY (percent) must reach
 * `minFundingApy`; with `maxSpreadBps`, the marks must be at most that far
 * apart. Pure.
 * @returns the first rule that holds the task back, or null to open
 */
export function openingGate(
  task: Pick<TaskRecord, 'autoClose' | 'minFundingApy' | 'maxSpreadBps'>,
  quotes: { readonly long: MarketQuote; readonly short: MarketQuote },
): PendingReason | null {
  if (task.autoClose) {
    const apy = fundingApyPct(quotes.long, quotes.short)
    if (apy.lt(task.minFundingApy))
      return fundingBelowMin(apy, task.minFundingApy)
  }
  if (task.maxSpreadBps !== null) {
    const spread = spreadBps(quotes.long, quotes.short)
    if (spread.gt(task.maxSpreadBps)) {
      return spreadAboveMax(spread, task.maxSpreadBps)
    }
  }
  return null
}
