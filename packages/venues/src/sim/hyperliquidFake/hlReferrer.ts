import type { HlFakeState } from './hlFakeState.js'

/**
 * `setReferrer` (`{type:'setReferrer', code}`, an L1 action): the user
 * joins under a referral code, once. The fake knows only the codes it was
 * started with (`referralCodes`; the venue's `registerReferrer` is not
 * served), so ccxt's start-up `setReferrer` with its own code (`CCXT1`)
 * is refused, which ccxt ignores; it spends the action's weight (1, as
 * any `/exchange` request) and the address's action budget either way.
 *
 * Answers: `{type:'default'}` on success; `Referrer already set` and
 * `Cannot self-refer` are the venue's words (quoted by nktkas/hyperliquid's
 * tests against the live API). [unverified] the words for an unknown code:
 * no public source quotes them.
 *
 * @module
 */

/** The venue's answer when the user already joined under a code. */
export const HL_REFERRER_ALREADY_SET = 'Referrer already set'

/** The fake's answer to a code nobody registered [unverified words]. */
export const HL_REFERRAL_CODE_UNKNOWN = 'Referral code does not exist.'

type Json = Record<string, unknown>
const err = (response: string) => ({ status: 'err', response })

/** Answers a verified `setReferrer` action of `user`. */
export function setHlReferrer(
  state: HlFakeState,
  user: string,
  action: Json,
): unknown {
  const code = action.code
  if (typeof code !== 'string') {
    return err('Failed to deserialize the JSON body into the target type: code')
  }
  if (state.referrerOf.has(user)) return err(HL_REFERRER_ALREADY_SET)
  const owner = state.referralCodes.get(code)
  if (owner === undefined) return err(HL_REFERRAL_CODE_UNKNOWN)
  if (owner === user) return err('Cannot self-refer')
  state.referrerOf.set(user, code)
  return { status: 'ok', response: { type: 'default' } }
}
