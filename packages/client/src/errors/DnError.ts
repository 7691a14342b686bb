/**
 * Base of every error this client throws, so one `instanceof DnError`
 * separates the client's failures from bugs; `code` is stable across
 * versions and safe to switch on.
 */
export abstract class DnError extends Error {
  abstract readonly code: string
}
