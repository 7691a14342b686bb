/**
 * How long a rate-limit refusal that names no wait (no Retry-After) holds
 * every request to its venue: `firstMs` for a refusal that follows an
 * answer, twice the last hold for each refusal after it with none
 * between, up to the venue's full hold. A venue over its limit refuses
 * again and reaches the full hold within a few refusals; a lone refusal
 * (a request that met a burst of someone else's on the IP, a gateway
 * shedding load for a moment) stops the process's traffic for a moment,
 * not for the full hold: at 10 s a refusal, a few refusals a minute kept
 * a venue's orders and lookups waiting most of the time (the venue-fault
 * suite). Requests already sent when a refusal came are its burst: their
 * refusals keep the hold rather than lengthen it, and their other
 * answers do not end the streak.
 */
interface RateLimitBackoff {
  /** A request is about to be sent: its ticket for what comes back. */
  sending(): number
  /**
   * The request of `ticket` was refused; `fullMs` is the venue's full
   * hold. @returns ms to hold every request
   */
  refused(ticket: number, fullMs: number): number
  /** The request of `ticket` got any other answer. */
  answered(ticket: number): void
}

export function createRateLimitBackoff(firstMs: number): RateLimitBackoff {
  let issued = 0
  // the last refusal: the last ticket issued when it came, and the hold
  // it set; null once a later request was answered
  let last: { readonly burst: number; readonly ms: number } | null = null
  return {
    sending: () => ++issued,
    refused(ticket, fullMs) {
      if (last && ticket <= last.burst) return Math.min(fullMs, last.ms)
      const ms = Math.min(fullMs, last ? last.ms * 2 : firstMs)
      last = { burst: issued, ms }
      return ms
    },
    answered(ticket) {
      if (last && ticket > last.burst) last = null
    },
  }
}
