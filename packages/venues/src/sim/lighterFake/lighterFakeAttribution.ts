import {
  LIGHTER_AUTH_MAX_TTL_S,
  parseLighterAuthToken,
  verifyLighterAuthToken,
} from '../../lighter/signer/authToken.js'
import { keyId, type LighterFakeState } from './lighterFakeState.js'

/**
 * Which L1 address Lighter counts a request against, as the venue can
 * tell it: an authenticated read by its auth token's account (only when
 * the token is valid: "authenticate each request so that only L1-based
 * rate limits apply"), a tx by the owner of its `AccountIndex`. Null:
 * counted per IP.
 */
interface LighterFakeAttribution {
  /** the owner of a valid token's account, or null */
  read(token: string | null | undefined): string | null
  /**
   * the owner of the account a posted tx acts for (a batch: its first
   * tx's), or null
   */
  tx(form: URLSearchParams): string | null
}

/** Verified tokens kept; a client reuses one token for many reads. */
const MAX_TOKENS = 1000

/**
 * Attribution over the fake's keys and the engine's accounts. Verified
 * tokens are cached (at most 1000, then the cache starts over); a
 * token's deadline and key are checked on every use.
 */
export function createLighterFakeAttribution(
  state: LighterFakeState,
): LighterFakeAttribution {
  const verified = new Map<
    string,
    { account: number; apiKey: number; deadline: number; pk: string }
  >()
  const owner = (account: number) =>
    state.exchange.ownerOf(account)?.toLowerCase() ?? null

  return {
    read(token) {
      if (!token) return null
      const nowS = Math.floor(state.now() / 1000)
      let hit = verified.get(token)
      if (!hit) {
        const parsed = parseLighterAuthToken(token)
        const pk =
          parsed &&
          state.keys.get(keyId(parsed.accountIndex, parsed.apiKeyIndex))
        if (!parsed || !pk || !verifyLighterAuthToken(parsed, pk)) return null
        if (verified.size >= MAX_TOKENS) verified.clear()
        hit = {
          account: parsed.accountIndex,
          apiKey: parsed.apiKeyIndex,
          deadline: parsed.deadline,
          pk,
        }
        verified.set(token, hit)
      }
      const live =
        hit.deadline > nowS &&
        hit.deadline <= nowS + LIGHTER_AUTH_MAX_TTL_S &&
        // a changed key invalidates its tokens
        state.keys.get(keyId(hit.account, hit.apiKey)) === hit.pk
      if (!live) return null
      return owner(hit.account)
    },
    tx(form) {
      try {
        const batch = form.get('tx_infos')
        const raw: unknown =
          batch === null
            ? form.get('tx_info')
            : (JSON.parse(batch) as unknown[] | null)?.[0]
        const info: unknown = JSON.parse(typeof raw === 'string' ? raw : '')
        const account =
          info && typeof info === 'object'
            ? (info as Record<string, unknown>).AccountIndex
            : undefined
        return typeof account === 'number' && Number.isSafeInteger(account)
          ? owner(account)
          : null
      } catch {
        return null
      }
    },
  }
}
