/**
 * The CLI's exit codes, one per kind of failure, so a script can tell a
 * typo from a service that is down. Documented in docs/cli.md.
 */
export const EXIT = {
  ok: 0,
  /** a bug or an answer nothing else explains */
  internal: 1,
  /** bad flags or arguments, or the service answered 400 */
  usage: 2,
  /** no or a wrong API key (401), not allowed (403), no wallet */
  auth: 3,
  /** the task, order, key or binding does not exist (404) */
  notFound: 4,
  /** the service refused in the current state (409) */
  conflict: 5,
  /** the service could not be reached or did not answer JSON */
  network: 6,
  /** no answer in time, or a wait gave up */
  timeout: 7,
  /** what was awaited ended otherwise (task failed, order rejected) */
  ended: 8,
  /** rate limited (429) or unavailable (503) after the retries */
  busy: 9,
} as const

export type ExitCode = (typeof EXIT)[keyof typeof EXIT]

/** The exit code for an HTTP error status of the service. */
export function exitForStatus(status: number): ExitCode {
  if (status === 400 || status === 413 || status === 415) return EXIT.usage
  if (status === 401 || status === 403) return EXIT.auth
  if (status === 404) return EXIT.notFound
  if (status === 409) return EXIT.conflict
  if (status === 429 || status === 503) return EXIT.busy
  return EXIT.internal
}
