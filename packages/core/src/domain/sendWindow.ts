/**
 * How long after a submission starts a venue may still execute it: the
 * adapters sign this deadline into the request (`validUntil`), so a
 * request stuck in transit is refused by the venue after it. Short, as a
 * send whose answer was lost can be proven never placed only once it has
 * passed (plus the venue's visibility lag): 30 s left a market order's
 * 60 s queue deadline no room for a second send (the venue-fault suite).
 * At least Aster's nonce window (10 s) and a moment to sign: an Aster
 * send must be signed within 5 s of its commit, or it is not sent.
 */
export const SEND_WINDOW_MS = 15_000

/**
 * The send window of `adapter`'s venue: its own (`sendWindowMs`), else
 * SEND_WINDOW_MS. Every send's deadline is its commit plus this, saved
 * before it is sent.
 */
export function sendWindowOf(adapter: {
  readonly sendWindowMs?: number | undefined
}): number {
  return adapter.sendWindowMs ?? SEND_WINDOW_MS
}

/**
 * A submission never seen at the venue this long after it started never
 * will be: its send window closed, plus room for clock skew between us and
 * the venue and for venues that show orders late. The rule by our own
 * clock, for lookups that do not say when the venue answered.
 */
export const NEVER_PLACED_AFTER_MS = SEND_WINDOW_MS + 90_000

/**
 * How long after its own clock passed a send's signed deadline a venue
 * may still be missing from its lookups an order it accepted by then,
 * for an adapter that tells the venue's clock (`orderWithVenueTime`) but
 * not its lag (`visibilityLagMs`): the largest lag an adapter states
 * (Lighter's).
 */
export const DEFAULT_VISIBILITY_LAG_MS = 20_000
