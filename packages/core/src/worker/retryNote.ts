import { RequestBudgetError } from '../errors/venue.js'

const UNREACHABLE = 'venue unreachable, retrying: '
const BUDGET = "waiting for the venue's request budget: "

/**
 * A task's `error` while a venue call is being retried: why, in words a
 * user can act on. It lasts until a round succeeds (clearRetryNote).
 */
export function retryNote(err: Error | readonly string[]): string {
  if (Array.isArray(err)) return `${UNREACHABLE}${err.join('; ')}`
  const e = err as Error
  return e instanceof RequestBudgetError
    ? `${BUDGET}${e.message}`
    : `${UNREACHABLE}${e.message}`
}

/** The task's error once a round got through: a retry note is gone. */
export function clearRetryNote(error: string | null): string | null {
  return error !== null &&
    (error.startsWith(UNREACHABLE) || error.startsWith(BUDGET))
    ? null
    : error
}
