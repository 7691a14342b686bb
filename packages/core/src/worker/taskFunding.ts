import type { Leg } from '../domain/taskEngineState.js'
import type { ReadOptions } from '../ports/venueAdapter.js'
import { type Decimal, dec, decString } from '../util/decimal.js'
import { msToIso } from '../util/time.js'
import { marketOf } from './taskLegOrders.js'
import type { TaskStep } from './taskStep.js'

const LEGS: readonly Leg[] = ['long', 'short']

/**
 * Funding is read this long after a settlement, for the venue to show it:
 * past the seconds in which Hyperliquid may still be applying it, and
 * past a cycle of monitoring's positions reads (about 25 s at the budget's
 * pace), whose states then show the settlement: Hyperliquid books funding
 * from them, with no read of its own.
 */
export const FUNDING_READ_LAG_MS = 45_000

interface BookedFunding {
  /** the task's funding total with the new payments added */
  readonly fundingUsd: string
  /** payments at or after this time are not yet counted */
  readonly fundingSince: string
}

/**
 * The task's part of one payment. An account's payment on a market is
 * shared pro rata when other tasks (or the user) hold the same market: by
 * the position the venue says was paid on, else the account's position as
 * last read, else (neither known, e.g. Aster after a close) all of it.
 */
function taskShare(
  legSize: Decimal,
  paidOn: string,
  accountSize: string | undefined,
): Decimal {
  const base = !dec(paidOn).isZero()
    ? dec(paidOn).abs()
    : accountSize !== undefined && !dec(accountSize).isZero()
      ? dec(accountSize).abs()
      : null
  if (base === null) return dec(1)
  const share = legSize.div(base)
  return share.gt(1) ? dec(1) : share
}

/** Where a funding read stops, and how it is sent. */
interface BookFundingOptions {
  /**
   * payments at or after this time (ISO) are not the task's: a closed
   * task's account may hold the market again for another task
   * @default none
   */
  readonly until?: string | undefined
  /** @default the adapter's (funding: 'history') */
  readonly read?: ReadOptions | undefined
}

/**
 * Reads both legs' funding payments since the task's cursor and adds the
 * task's part to its total. `legSizes` are the sizes the task held when
 * the payments were made; `accountSizes` the accounts' positions on those
 * markets where known.
 */
export async function bookFunding(
  step: TaskStep,
  legSizes: Readonly<Record<Leg, string | null>>,
  accountSizes: Readonly<Record<Leg, string | undefined>>,
  options: BookFundingOptions = {},
): Promise<BookedFunding> {
  const { task } = step
  const io = await step.io()
  const since = step.state.fundingSince ?? task.createdAt
  const until =
    options.until === undefined
      ? Number.POSITIVE_INFINITY
      : Date.parse(options.until)
  let funding = dec(0)
  let cursor = since
  for (const l of LEGS) {
    const legSize = dec(legSizes[l] ?? '0')
    const payments = await io[l].adapter.funding(
      io[l].cred,
      marketOf(task, l),
      since,
      ...(options.read ? [options.read] : []),
    )
    for (const p of payments) {
      if (Date.parse(p.time) >= until) continue
      funding = funding.add(
        dec(p.amountUsd).mul(
          taskShare(legSize, p.positionSize, accountSizes[l]),
        ),
      )
      if (p.time >= cursor) cursor = msToIso(Date.parse(p.time) + 1)
    }
  }
  return {
    fundingUsd: decString(dec(task.fundingUsd).add(funding).toDecimalPlaces(8)),
    fundingSince: cursor,
  }
}

/**
 * A settlement has passed since the task's funding was last booked: the
 * time its next read was set for (a settlement plus the read lag) minus
 * the lag. A task never booked has one due.
 */
export function settlementUnbooked(step: TaskStep): boolean {
  const checkAt = step.state.fundingCheckAt
  if (!checkAt) return true
  return step.now >= Date.parse(checkAt) - FUNDING_READ_LAG_MS
}
