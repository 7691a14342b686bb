import type { Clock } from '@dn/core'

export interface NonceClockOptions {
  /**
   * The last nonce already used by this signer (e.g. persisted before a
   * restart); every nonce handed out is above it. @default 0
   */
  readonly floor?: number | undefined
}

/** Hands out one signer's nonces. */
export interface NonceClock {
  /** `max(now, last + 1)`: strictly increasing milliseconds */
  next(): number
  /** the last nonce handed out (or the floor) */
  last(): number
}

/**
 * Per-signer monotonic millisecond nonces (Hyperliquid keeps the highest
 * nonces per signer and rejects reuse): `next()` returns the clock's time
 * unless that is not above the last one, then last + 1.
 * @param clock the time source
 * @param options `floor` to start above a persisted nonce
 * @returns the nonce clock
 * @throws RangeError on a bad floor, or a clock that returns a non-integer
 * @example const nonces = createNonceClock(systemClock); nonces.next()
 */
export function createNonceClock(
  clock: Clock,
  options: NonceClockOptions = {},
): NonceClock {
  const floor = options.floor ?? 0
  if (!Number.isSafeInteger(floor) || floor < 0) {
    throw new RangeError(`floor must be a non-negative safe integer: ${floor}`)
  }
  let last = floor
  return Object.freeze({
    next(): number {
      const now = clock.now()
      if (!Number.isSafeInteger(now)) {
        throw new RangeError(`clock returned a non-integer: ${now}`)
      }
      last = now > last ? now : last + 1
      return last
    },
    last: () => last,
  })
}
