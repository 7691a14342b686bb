import { VenueRejectedError, VenueUnavailableError } from '@dn/core'
import { isInvalidNonce } from './lighterRejectedError.js'

/**
 * Nonces of Lighter API keys. Each (account, API key) has one strictly
 * increasing nonce. It is read once from `nextNonce`, then counted
 * locally; txs of one key are sent one at a time (an in-process mutex),
 * so the local count stays exact within a process.
 *
 * What a failed send does to the count (Lighter docs, `trading`):
 * - refused at the API (HTTP 400) or never sent: not consumed, reused;
 * - accepted (200), even if the sequencer then rejects it: consumed;
 * - `invalid nonce` (another process used it) or an uncertain send
 *   (maybe accepted): unknown, so the next send re-reads `nextNonce`.
 *
 * @module
 */

export interface LighterKeyRef {
  readonly accountIndex: number
  readonly apiKeyIndex: number
}

export interface LighterNonceManager {
  /**
   * Runs `send` with the key's next nonce while holding the key's lock.
   * `fetchNext` reads `nextNonce` when the local count is unknown.
   */
  withNonce<T>(
    key: LighterKeyRef,
    fetchNext: () => Promise<number>,
    send: (nonce: number) => Promise<T>,
  ): Promise<T>
  /** Forgets the local count: the next send re-reads `nextNonce`. */
  invalidate(key: LighterKeyRef): void
}

/**
 * Creates a nonce manager; share one per process for every adapter using
 * the same keys.
 *
 * @example
 * const nonces = createLighterNonceManager()
 * await nonces.withNonce(key, () => readNextNonce(key), (n) => send(n))
 */
export function createLighterNonceManager(): LighterNonceManager {
  const next = new Map<string, number>()
  const locks = new Map<string, Promise<unknown>>()
  const id = (k: LighterKeyRef) => `${k.accountIndex}:${k.apiKeyIndex}`

  async function withNonce<T>(
    key: LighterKeyRef,
    fetchNext: () => Promise<number>,
    send: (nonce: number) => Promise<T>,
  ): Promise<T> {
    const k = id(key)
    const previous = locks.get(k) ?? Promise.resolve()
    const run = previous.then(async () => {
      const nonce = next.get(k) ?? (await fetchNext())
      try {
        const result = await send(nonce)
        next.set(k, nonce + 1)
        return result
      } catch (err) {
        if (isInvalidNonce(err)) next.delete(k)
        else if (
          err instanceof VenueRejectedError ||
          err instanceof VenueUnavailableError
        ) {
          next.set(k, nonce)
        } else next.delete(k)
        throw err
      }
    })
    const settled = run.catch(() => undefined)
    locks.set(k, settled)
    // drop the entry once idle so the map holds only busy keys
    void settled.then(() => {
      if (locks.get(k) === settled) locks.delete(k)
    })
    return run
  }

  return Object.freeze({
    withNonce,
    invalidate: (key: LighterKeyRef) => {
      next.delete(id(key))
    },
  })
}
