import { DnError } from './DnError.js'
import type { NetworkReason } from './networkReason.js'

/** Drops user:password from a URL before it reaches a message or a log. */
function scrub(url: string): string {
  try {
    const u = new URL(url)
    u.username = ''
    u.password = ''
    return u.href
  } catch {
    return url
  }
}

/**
 * The service could not be reached (after every retry): refused, unknown
 * host, timed out or cut. A command may or may not have run; retry it with
 * the same idempotency key to find out.
 */
export class DnNetworkError extends DnError {
  override name = 'DnNetworkError'
  readonly code = 'network_error'
  readonly url: string
  readonly method: string
  readonly reason: NetworkReason
  /** the POST's key: send the command again with it to learn its outcome */
  readonly idempotencyKey: string | null

  constructor(
    p: {
      url: string
      method: string
      reason: NetworkReason
      idempotencyKey?: string | undefined
    },
    cause: unknown,
  ) {
    const url = scrub(p.url)
    super(`${p.method} ${url} failed: ${p.reason}`, { cause })
    this.url = url
    this.method = p.method
    this.reason = p.reason
    this.idempotencyKey = p.idempotencyKey ?? null
  }
}
