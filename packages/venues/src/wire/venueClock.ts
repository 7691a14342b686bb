import { AsyncLocalStorage } from 'node:async_hooks'
import type { VenueAdapter } from '@dn/core'

/**
 * @module The venue's clock as its answers show it. Every answer carries
 * an HTTP `Date` header (RFC 9110 §6.6.1: when the origin produced it, in
 * whole seconds), which the one HTTP layer (`venueHttp.ts`) records for
 * the call that sent the request. A lookup read inside `readVenueClock`
 * learns what the venue's clock had at least reached when it answered:
 * what the never-placed rule compares with a send's signed deadline, which
 * the venue checks against that same clock.
 */

/** What one answer showed of the venue's clock. */
interface VenueClockReading {
  /**
   * Unix ms: the start of the second its `Date` header names, less its
   * `Age` when a cache served it. The answer was produced at or after it
   * on the venue's clock (or on a proxy's in front of it).
   */
  readonly venueAtLeast: number
  /** our clock (`Date.now()`) when the request went out */
  readonly sentAt: number
  /** our clock when its answer's headers came */
  readonly receivedAt: number
}

interface Watch {
  /** the earliest reading so far */
  earliest: VenueClockReading | null
  /** an answer had no readable `Date`: the call cannot tell */
  undated: boolean
  readonly parent: Watch | undefined
}

const watches = new AsyncLocalStorage<Watch>()

/**
 * Records what one answer's headers show of the venue's clock, for every
 * `readVenueClock` the request was sent under.
 * @internal called by `createVenueHttp` for every answer
 */
export function recordVenueClock(
  headers: Headers,
  sentAt: number,
  receivedAt: number,
): void {
  // a cache's copy is older than its Date by its `Age` (RFC 9111 §5.1)
  const age = Number(headers.get('age') ?? 0)
  const date =
    Date.parse(headers.get('date') ?? '') -
    (Number.isFinite(age) && age > 0 ? age * 1000 : 0)
  for (let w = watches.getStore(); w; w = w.parent) {
    if (!Number.isFinite(date)) {
      w.undated = true
    } else if (w.earliest === null || date < w.earliest.venueAtLeast) {
      w.earliest = { venueAtLeast: date, sentAt, receivedAt }
    }
  }
}

/**
 * Runs `fn` and returns its value with the earliest venue clock reading
 * among the answers to the requests it sent: a lower bound of the venue's
 * clock when each of them was produced. Null when one had no `Date`, or
 * `fn` sent nothing (served from a cache or a read another call sent,
 * which may be older). `fn`'s requests must be its own reads sent now,
 * not joined to another call's: only those are recorded here.
 */
export async function readVenueClock<T>(
  fn: () => Promise<T>,
): Promise<{ value: T; reading: VenueClockReading | null }> {
  const watch: Watch = {
    earliest: null,
    undated: false,
    parent: watches.getStore(),
  }
  const value = await watches.run(watch, fn)
  return { value, reading: watch.undated ? null : watch.earliest }
}

/**
 * An adapter's `orderWithVenueTime` over its `order`: the lookup, with
 * the venue's clock at the earliest answer it read.
 */
export function orderWithVenueTime(
  order: VenueAdapter['order'],
): NonNullable<VenueAdapter['orderWithVenueTime']> {
  return async (cred, market, clientOrderId, options) => {
    const { value, reading } = await readVenueClock(() =>
      order(cred, market, clientOrderId, options),
    )
    return { order: value, venueTimeAtLeast: reading?.venueAtLeast ?? null }
  }
}
