/**
 * The CLI's exit codes, one per kind of failure, so a script can tell a
 * typo from a service that is down. Documented in docs/cli.md.
 */
export const EXIT = {
  ok: 0,
  internal: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  conflict: 5,
  network: 6,
  timeout: 7,
  ended: 8,
  busy: 9,
} as const

/** What each exit code means, as docs/cli.md lists it. */
export const EXIT_MEANING: Record<keyof typeof EXIT, string> = {
  ok: 'success',
  internal: 'an unexpected failure (a bug, or an answer nothing else explains)',
  usage: 'bad flags or arguments, or the service answered 400, 413 or 415',
  auth: 'no or a wrong API key (401), not allowed (403), no wallet',
  notFound: 'the task, order, key or binding does not exist (404)',
  conflict: 'refused in the current state (409)',
  network: 'the service could not be reached, or did not answer JSON',
  timeout: 'no answer in time, or a wait gave up (`--timeout`)',
  ended:
    'what was awaited ended otherwise (a task failed, an order was rejected, a binding failed)',
  busy: 'rate limited (429) or unavailable (503) after the retries',
}

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
