import type { Clock } from '@dn/core'

/**
 * How long after our own order on an account its streamed state is not
 * trusted. A venue answers an order before the stream pushes the state
 * with its fill (Hyperliquid pushes per block, Aster and Lighter per
 * event): a positions read served from the stream in between shows the
 * account as it was, and a leg that just opened looks gone (liquidated).
 * Three seconds covers a push in flight with room to spare; the REST read
 * that serves meanwhile is one per order.
 */
const STREAM_QUARANTINE_MS = 3_000

/** Accounts written to recently, whose streamed state may predate it. */
export function createStreamQuarantine(
  clock: Clock,
  quarantineMs = STREAM_QUARANTINE_MS,
) {
  const wrote = new Map<string, number>()
  return {
    /** An order was sent (or answered) for `account` now. */
    wrote(account: string): void {
      wrote.set(account, clock.now())
      // a small map: forget accounts whose quarantine has passed
      if (wrote.size > 10_000) {
        const until = clock.now() - quarantineMs
        for (const [k, at] of wrote) if (at < until) wrote.delete(k)
      }
    },
    /** Whether the stream may answer for `account`. */
    trusted(account: string): boolean {
      const at = wrote.get(account)
      return at === undefined || clock.now() - at >= quarantineMs
    },
  }
}
