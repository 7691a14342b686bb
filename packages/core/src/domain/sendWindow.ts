/**
 * How long after a submission starts a venue may still execute it: the
 * adapters sign this deadline into the request (`validUntil`), so a
 * request stuck in transit is refused by the venue after it.
 */
export const SEND_WINDOW_MS = 30_000

/**
 * A submission never seen at the venue this long after it started never
 * will be: its send window closed, plus room for clock skew between us and
 * the venue and for venues that show orders late.
 */
export const NEVER_PLACED_AFTER_MS = SEND_WINDOW_MS + 90_000
