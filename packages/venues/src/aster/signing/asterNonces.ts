import type { Clock } from '@dn/core'

/**
 * Nonces shared by every process trading with one agent key (e.g. a store
 * counter `next(name, floor)`): given the signer and the current time in
 * microseconds, returns a nonce above every nonce handed out before.
 */
export type AsterNonceSource = (
  signer: string,
  nowUs: number,
) => Promise<number>

/** Hands out microsecond nonces per signer. */
interface AsterNonces {
  next(signer: string): number
}

/** Signers remembered before the oldest is dropped. */
const MAX_SIGNERS = 10_000

/**
 * Per-signer monotonic microsecond nonces: `max(now·1000, last + 1)`. Aster
 * rejects a nonce it has seen or one more than 10 s from its clock, so a
 * burst within one millisecond counts up in microseconds instead of
 * repeating. Signers are case-insensitive.
 * @param clock millisecond time source
 * @example createAsterNonces(systemClock).next(agentAddress)
 */
export function createAsterNonces(clock: Clock): AsterNonces {
  const last = new Map<string, number>()
  return Object.freeze({
    next(signer: string): number {
      const key = signer.toLowerCase()
      const now = clock.now() * 1000
      if (!Number.isSafeInteger(now)) {
        throw new RangeError(`clock returned a non-integer: ${clock.now()}`)
      }
      const prev = last.get(key) ?? 0
      const nonce = now > prev ? now : prev + 1
      last.delete(key)
      last.set(key, nonce)
      if (last.size > MAX_SIGNERS) {
        const oldest = last.keys().next().value
        if (oldest !== undefined) last.delete(oldest)
      }
      return nonce
    },
  })
}
