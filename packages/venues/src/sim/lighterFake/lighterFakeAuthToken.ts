import {
  LIGHTER_AUTH_MAX_TTL_S,
  parseLighterAuthToken,
  verifyLighterAuthToken,
} from '../../lighter/signer/authToken.js'
import { FAKE_CODES, LighterFakeError } from './lighterFakeError.js'
import { keyId, type LighterFakeState } from './lighterFakeState.js'

/**
 * Refuses (`invalid auth`) a token that is not a live, well-signed token
 * of `account`'s registered API key: the check of authenticated reads and
 * of the `account_all` channel alike.
 */
export function requireLighterAuthToken(
  state: LighterFakeState,
  account: number,
  token: string,
): void {
  const parsed = parseLighterAuthToken(token)
  const nowS = Math.floor(state.now() / 1000)
  const pk =
    parsed && state.keys.get(keyId(parsed.accountIndex, parsed.apiKeyIndex))
  if (
    !parsed ||
    !pk ||
    parsed.accountIndex !== account ||
    parsed.deadline <= nowS ||
    parsed.deadline > nowS + LIGHTER_AUTH_MAX_TTL_S ||
    !verifyLighterAuthToken(parsed, pk)
  ) {
    throw new LighterFakeError(FAKE_CODES.invalidAuth, 'invalid auth')
  }
}
