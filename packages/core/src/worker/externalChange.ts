import type { LedgerReading } from '../domain/positionLedger.js'
import type { Leg } from '../domain/taskEngineState.js'
import type { VenueId } from '../domain/venue.js'
import type { AccountMarket } from '../ports/store.js'
import { dec, decString } from '../util/decimal.js'
import { reportWorkerEvent } from './reportWorkerEvent.js'
import type { WorkerDeps } from './workerDeps.js'

const PREFIX = 'external change: '
const LEFT_PREFIX = 'left at the venue: '

/**
 * A task's `error` naming a change made to its venue position outside its
 * own orders (a liquidation, an auto-deleverage, a trade on the venue,
 * venue state lost): what the venue holds, what dn's holders account
 * for, and what is left of the leg. It stays once the task closes.
 */
export function externalChangeNote(
  m: AccountMarket,
  leg: Leg,
  reading: LedgerReading,
  held: string,
  recorded: string,
): string {
  return `${PREFIX}${m.venue} ${m.market} holds ${reading.venueNet} where dn's orders account for ${reading.sum} (${signed(reading.external)} unexplained); the ${leg} leg holds ${held} of its ${recorded}`
}

/**
 * A task's `error` naming a leg's part its close left at the venue: below
 * the venue's smallest order, and growing the other side of a net another
 * holder turned (a venue takes only reduce-only orders below its minimum).
 * It stays once the task closes.
 */
export function leftAtVenueNote(
  m: AccountMarket,
  leg: Leg,
  base: string,
  mark: string,
): string {
  const usd = dec(base).mul(mark).toFixed(2)
  return `${LEFT_PREFIX}the ${leg} leg's ${base} ${m.market} (USD ${usd}) is below the smallest order ${m.venue} takes and would not reduce the account's net; it stays in the ${m.market} position there, held by this task (dn positions: left by task)`
}

/** The task's error once its close is done: what the close left noted stays. */
export function keptAtClose(error: string | null): string | null {
  return error?.startsWith(PREFIX) || error?.startsWith(LEFT_PREFIX)
    ? error
    : null
}

function signed(v: string): string {
  return dec(v).isPositive() ? `+${decString(dec(v))}` : decString(dec(v))
}

/** Tells the log and the metrics that a task met an external change. */
export function reportExternalChange(
  deps: Pick<WorkerDeps, 'logger' | 'observer' | 'workerId'>,
  taskId: string,
  change: {
    readonly venue: VenueId
    readonly market: string
    readonly note: string
  },
): void {
  reportWorkerEvent(deps, { type: 'externalChange', id: taskId, ...change })
}
