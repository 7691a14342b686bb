import { apyPct } from '../domain/fundingApy.js'
import type { Leg } from '../domain/taskEngineState.js'
import type { VenueId } from '../domain/venue.js'
import { VenueUnavailableError } from '../errors/venue.js'
import type { RequestPriority } from '../limits/requestPriority.js'
import type { MarketQuote, MarketRules } from '../ports/marketData.js'
import { type Decimal, dec, decString } from '../util/decimal.js'
import { msToIso } from '../util/time.js'
import { accountMarketLock, lockHolder } from './accountMarketLock.js'
import { marketOf, venueOf } from './taskLegOrders.js'
import type { TaskStep } from './taskStep.js'

type LegMarket = { rules: MarketRules; quote: MarketQuote }

/** The venue a market read failed on, for the errors readMarkets threw. */
const failedOn = new WeakMap<Error, VenueId>()

/** The venue whose market read threw `err`, when readMarkets threw it. */
export function failedVenue(err: unknown): VenueId | null {
  return err instanceof Error ? (failedOn.get(err) ?? null) : null
}

/**
 * Rules and a fresh quote for both legs; `priority` the quotes' reads'
 * (`order` where the legs' orders are priced from them and sent at once,
 * which is part of sending them)
 */
export async function readMarkets(
  step: TaskStep,
  priority?: RequestPriority,
): Promise<Record<Leg, LegMarket>> {
  const read = async (leg: Leg): Promise<LegMarket> => {
    const adapter = step.deps.adapters[venueOf(step.task, leg)]
    const symbol = marketOf(step.task, leg)
    try {
      const rules = await adapter.rules(symbol)
      if (!rules)
        throw new RangeError(`${adapter.venue} no longer lists ${symbol}`)
      return { rules, quote: await adapter.quote(symbol, { priority }) }
    } catch (err) {
      if (err instanceof VenueUnavailableError) failedOn.set(err, adapter.venue)
      throw err
    }
  }
  const [long, short] = await Promise.all([read('long'), read('short')])
  return { long, short }
}

/**
 * Annualized funding the pair earns, in percent: the short leg receives its
 * venue's rate, the long leg pays its own.
 */
export function fundingApyPct(long: MarketQuote, short: MarketQuote): Decimal {
  return apyPct(dec(short.fundingRateHourly).sub(long.fundingRateHourly))
}

/** A funding APY as a task shows it: percent, 2 decimals. */
export function shownApy(apyPct: Decimal): string {
  return decString(apyPct.toDecimalPlaces(2))
}

/**
 * Serializes owner operations on each leg's account and market across
 * workers. When either lock is busy the step retries shortly.
 */
export async function withLegLocks(
  step: TaskStep,
  fn: () => Promise<number | null>,
  onBusy?: () => Promise<void>,
): Promise<number | null> {
  const { deps, task, now } = step
  // in one order for every task: two tasks with opposite legs on the same
  // two account markets, each taking its long leg's lock first, each found
  // the other's taken and retried in step, for ever (the position-ledger
  // property found it)
  const names = (['long', 'short'] as const)
    .map((l) =>
      accountMarketLock(task.owner, venueOf(task, l), marketOf(task, l)),
    )
    .sort()
  const holder = lockHolder(deps.workerId, 'task', task.id)
  const held: string[] = []
  try {
    for (const name of names) {
      if (
        !(await deps.store.locks.acquire(
          name,
          holder,
          msToIso(now),
          deps.leaseMs,
        ))
      ) {
        await onBusy?.()
        return now + 200
      }
      held.push(name)
    }
    return await fn()
  } finally {
    for (const name of held) await deps.store.locks.release(name, holder)
  }
}
