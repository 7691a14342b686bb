/** The first retry of a closed task's settlement reads, after the close's. */
export const SETTLE_FIRST_RETRY_MS = 10_000
/** The longest wait between two tries. */
export const SETTLE_MAX_RETRY_MS = 3_600_000
/**
 * Tries end this long after the close. Venues keep funding and fill
 * history for months; an outage of a week is not waited out, and a task
 * is not claimed forever.
 */
export const SETTLE_GIVE_UP_MS = 7 * 24 * 3_600_000

/**
 * When a closed task's settlement reads are tried again after `tries`
 * have failed (the one at the close included), the last at `now`: the
 * wait starts at SETTLE_FIRST_RETRY_MS and doubles each try, up to
 * SETTLE_MAX_RETRY_MS; the last try falls at SETTLE_GIVE_UP_MS after the
 * close (`closedAt`, Unix ms).
 * @returns Unix ms, or null once a try at or past that bound has failed
 * @example settleRetryAt(t, 1, t) // t + 10 s; then 20 s, 40 s, … 1 h
 */
export function settleRetryAt(
  closedAt: number,
  tries: number,
  now: number,
): number | null {
  const last = closedAt + SETTLE_GIVE_UP_MS
  if (now >= last) return null
  const wait = Math.min(
    SETTLE_MAX_RETRY_MS,
    SETTLE_FIRST_RETRY_MS * 2 ** Math.max(0, tries - 1),
  )
  return Math.min(now + wait, last)
}
