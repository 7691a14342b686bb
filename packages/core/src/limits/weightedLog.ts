/**
 * The exact weighted sliding log behind every venue request budget: a
 * bucket holds `(time, weight)` entries, and a charge is admitted only when
 * the weight inside the window, plus the charge, stays at or under a
 * ceiling. Kept pure so the in-process budget and a shared (database)
 * budget count the same way.
 *
 * @module
 */

/** One counted request: when it was sent and what it weighed. */
export interface LogEntry {
  readonly at: number
  readonly weight: number
}

/** Drops entries at or before the window start; returns what is left. */
export function pruneLog(
  entries: readonly LogEntry[],
  now: number,
  windowMs: number,
): LogEntry[] {
  const start = now - windowMs
  return entries.filter((e) => e.at > start)
}

/** Weight inside the window ending at `now`. */
export function usedWeight(
  entries: readonly LogEntry[],
  now: number,
  windowMs: number,
): number {
  const start = now - windowMs
  let sum = 0
  for (const e of entries) if (e.at > start) sum += e.weight
  return sum
}

/**
 * How long until `weight` more fits under `ceiling`: 0 when it fits now;
 * Infinity when it can never fit (heavier than the ceiling itself).
 */
export function waitToFit(
  entries: readonly LogEntry[],
  now: number,
  windowMs: number,
  ceiling: number,
  weight: number,
): number {
  if (weight > ceiling) return Number.POSITIVE_INFINITY
  let used = usedWeight(entries, now, windowMs)
  if (used + weight <= ceiling) return 0
  const start = now - windowMs
  // entries leave the window oldest first
  const live = entries.filter((e) => e.at > start).sort((a, b) => a.at - b.at)
  for (const e of live) {
    used -= e.weight
    if (used + weight <= ceiling) return e.at + windowMs - now
  }
  return windowMs
}

/**
 * The time to stamp a new entry of a log kept in one locked row (the
 * store's rate limits and venue budgets): no earlier than the latest
 * entry held. A process reads its time before it waits for the row lock,
 * so one that took the lock first may have logged a later time (another
 * server's clock may also run ahead); stamped in lock order, the log only
 * grows in time and a sliding window over it is exact. In request times,
 * two servers admitted 127-150 a minute against a limit of 120.
 */
export function lockOrderTime(nowMs: number, held: readonly number[]): number {
  let at = nowMs
  for (const t of held) if (t > at) at = t
  return at
}
