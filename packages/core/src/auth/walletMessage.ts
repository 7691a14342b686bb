import { canonicalJson } from '../util/canonicalJson.js'

/** Used when BINDING_AUTH_DOMAIN is not configured. */
export const DEFAULT_BINDING_AUTH_DOMAIN = 'dn'

/**
 * The contract's wallet message: four lines joined by `\n`, no trailing
 * newline. Signed with EIP-191 personal_sign.
 */
export function walletMessage(
  domain: string,
  action: string,
  payload: unknown,
): string {
  return [
    'service venue binding v1',
    `domain=${domain}`,
    `action=${action}`,
    `payload=${canonicalJson(payload)}`,
  ].join('\n')
}
