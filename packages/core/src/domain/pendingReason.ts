import { type Decimal, decString } from '../util/decimal.js'
import type { VenueId } from './venue.js'

/**
 * Why a pending task has not opened yet, as its latest opening attempt
 * found. Numbers are decimal strings; `minFundingApy` and `fundingApy`
 * are annualized percent (`minFundingApy` 5 = 5 %), as the create body
 * takes them.
 */
export type PendingReason =
  | {
      readonly code: 'funding_below_min'
      readonly message: string
      readonly fundingApy: string
      readonly minFundingApy: string
    }
  | {
      readonly code: 'spread_above_max'
      readonly message: string
      readonly spreadBps: string
      readonly maxSpreadBps: string
    }
  | {
      readonly code: 'venue_budget' | 'venue_unavailable'
      readonly message: string
      /** null when the failing venue is not known */
      readonly venue: VenueId | null
    }
  | {
      readonly code: 'account_busy'
      readonly message: string
    }

/** Shown numbers keep two decimals: finer moves are not news. */
const shown = (d: Decimal) => decString(d.toDecimalPlaces(2))

/** The pair's funding APY (percent) is under the task's minimum. */
export function fundingBelowMin(
  fundingApy: Decimal,
  minFundingApy: string,
): PendingReason {
  const apy = shown(fundingApy)
  return {
    code: 'funding_below_min',
    message: `funding APY ${apy}% < minFundingApy ${decString(minFundingApy)}%`,
    fundingApy: apy,
    minFundingApy: decString(minFundingApy),
  }
}

/** The legs' marks are further apart than the task allows. */
export function spreadAboveMax(
  spreadBps: Decimal,
  maxSpreadBps: string,
): PendingReason {
  const bps = shown(spreadBps)
  return {
    code: 'spread_above_max',
    message: `spread ${bps} bps > maxSpreadBps ${decString(maxSpreadBps)}`,
    spreadBps: bps,
    maxSpreadBps: decString(maxSpreadBps),
  }
}

/**
 * A venue read the opening needed did not go out: its request budget held
 * it back (`budget`), or the venue could not be reached.
 */
export function venueOutage(
  venue: VenueId | null,
  budget: boolean,
  detail: string,
): PendingReason {
  const who = venue ?? 'a venue'
  return budget
    ? {
        code: 'venue_budget',
        message: `waiting for ${who} request budget: ${detail}`,
        venue,
      }
    : {
        code: 'venue_unavailable',
        message: `${who} unavailable: ${detail}`,
        venue,
      }
}

/** Another operation holds one of the legs' account markets. */
export const ACCOUNT_BUSY: PendingReason = Object.freeze({
  code: 'account_busy',
  message:
    'waiting for another operation on the same venue account and market to finish',
})

/** Same reason, as shown: a task's row is written only when it changes. */
export function sameReason(
  a: PendingReason | null | undefined,
  b: PendingReason | null | undefined,
): boolean {
  return (a ?? null)?.message === (b ?? null)?.message && a?.code === b?.code
}
