import { randomBytes } from 'node:crypto'
import { AsterFakeError } from './asterFakeError.js'

/**
 * The fake's listenKeys, one per account, on the fake's clock. As the
 * futures v3 doc's "User Data Streams" states (asterdex/api-docs @
 * 265e024): a key is valid 60 min after creation; POST on an account with
 * an active key returns it, extended by 60 min; PUT extends by 60 min;
 * DELETE closes it; none of them takes a parameter of its own. A request
 * about a key that does not exist is `-1125` "This listenKey does not
 * exist." (Error Codes) — [unverified] that PUT and DELETE without an
 * active key answer it, as they do here.
 */
export interface AsterFakeListenKeys {
  /** POST: the user's active key extended, or a new one */
  open(user: string): { listenKey: string }
  /** PUT */
  keepAlive(user: string): Record<string, never>
  /** DELETE */
  close(user: string): Record<string, never>
  /** the user of a live key; undefined when unknown, expired or closed */
  userOf(listenKey: string): string | undefined
  /**
   * Ends every key whose 60 min passed, and returns them (their streams
   * are told `listenKeyExpired`).
   */
  expire(): string[]
}

/** A key lives this long after its creation or last extension. */
const LISTEN_KEY_TTL_MS = 60 * 60_000

const ALPHANUM =
  'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

/** 64 letters and digits, as the doc's sample key. */
function newKey(): string {
  return [...randomBytes(64)]
    .map((b) => ALPHANUM[b % ALPHANUM.length] as string)
    .join('')
}

const noSuchKey = () =>
  new AsterFakeError(-1125, 'This listenKey does not exist.')

export function createAsterFakeListenKeys(
  now: () => number,
): AsterFakeListenKeys {
  /** user → their key */
  const byUser = new Map<string, { key: string; until: number }>()
  /** key → user */
  const byKey = new Map<string, string>()

  function live(user: string) {
    const k = byUser.get(user)
    return k && k.until > now() ? k : undefined
  }

  function end(user: string) {
    const k = byUser.get(user)
    if (!k) return
    byUser.delete(user)
    byKey.delete(k.key)
  }

  return {
    open(user) {
      const k = live(user)
      if (k) {
        k.until = now() + LISTEN_KEY_TTL_MS
        return { listenKey: k.key }
      }
      end(user)
      const key = newKey()
      byUser.set(user, { key, until: now() + LISTEN_KEY_TTL_MS })
      byKey.set(key, user)
      return { listenKey: key }
    },
    keepAlive(user) {
      const k = live(user)
      if (!k) throw noSuchKey()
      k.until = now() + LISTEN_KEY_TTL_MS
      return {}
    },
    close(user) {
      if (!live(user)) throw noSuchKey()
      end(user)
      return {}
    },
    userOf(listenKey) {
      const user = byKey.get(listenKey)
      return user !== undefined && live(user) ? user : undefined
    },
    expire() {
      const gone: string[] = []
      for (const [user, k] of byUser) {
        if (k.until > now()) continue
        gone.push(k.key)
        end(user)
      }
      return gone
    },
  }
}
