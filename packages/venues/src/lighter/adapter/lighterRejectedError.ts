import { VenueRejectedError } from '@dn/core'

/**
 * Lighter answered with an error code (`{code, message}`, HTTP 400): the
 * request was refused at the API and nothing happened (in particular a
 * refused tx did not consume its nonce). Still a VenueRejectedError for
 * the port; the numeric code lets the adapter react to specific ones.
 */
export class LighterRejectedError extends VenueRejectedError {
  override name = 'LighterRejectedError'
  /** Lighter's numeric result code, e.g. 21728 */
  readonly lighterCode: number
  constructor(lighterCode: number, message: string) {
    super(`${message} (code ${lighterCode})`)
    this.lighterCode = lighterCode
  }
}

/** Lighter's codes the adapter acts on (ccxt `lighter.ts` error table). */
export const LIGHTER_CODES = {
  ok: 200,
  invalidTxInfo: 21501,
  l1SignatureFailed: 21504,
  tooManyPendingTxs: 21506,
  invalidBaseAmount: 21701,
  invalidPrice: 21702,
  invalidExpiry: 21711,
  invalidClientOrderIndex: 21727,
  clientOrderIndexExists: 21728,
} as const

/** True for Lighter's rate-limit codes 23000..23003. */
export function isLighterRateLimit(code: number): boolean {
  return code >= 23000 && code <= 23003
}

/**
 * A nonce desync: Lighter's message contains `invalid nonce` (the rule the
 * official python SDK uses). The tx was refused, so the nonce was not
 * consumed and a resync + resend is safe.
 */
export function isInvalidNonce(err: unknown): boolean {
  return (
    err instanceof LighterRejectedError && /invalid nonce/i.test(err.reason)
  )
}
