/**
 * A refusal the fake answers with HTTP 400 `{code, message}`, the shape
 * and (where known, lighter.md §9) the codes of Lighter's API. A refused
 * tx never consumes its nonce.
 */
export class LighterFakeError extends Error {
  override name = 'LighterFakeError'
  readonly code: number
  constructor(code: number, message: string) {
    super(message)
    this.code = code
  }
}

/**
 * Codes the fake uses. From ccxt's table of Lighter codes: 21500, 21501,
 * 21504, 21505, 21602, 21604, 21700, 21701, 21702, 21706, 21710, 21711,
 * 21705, 21713, 21727, 21728, 21729. From the venue's docs as api-evangelist/lighter
 * quotes them: 21104 invalid nonce, 21105 batch nonce not increasing.
 * Not in any source read, chosen here (unverified): 21100 account not
 * found, 21109 api key not found, 21120 invalid signature, 20013 invalid
 * auth, 21714 cancel-all time out of range.
 */
export const FAKE_CODES = {
  accountNotFound: 21100,
  invalidNonce: 21104,
  batchNonceNotIncreasing: 21105,
  apiKeyNotFound: 21109,
  invalidSignature: 21120,
  invalidAuth: 20013,
  txNotFound: 21500,
  invalidTxInfo: 21501,
  l1Signature: 21504,
  unsupportedTxType: 21505,
  invalidMarket: 21602,
  invalidMarginFraction: 21604,
  invalidOrderIndex: 21700,
  invalidBaseAmount: 21701,
  invalidPrice: 21702,
  invalidTimeInForce: 21705,
  invalidAmounts: 21706,
  unsupportedOrderType: 21710,
  invalidExpiry: 21711,
  invalidCancelAllTif: 21713,
  invalidCancelAllTime: 21714,
  invalidClientOrderIndex: 21727,
  clientOrderIndexExists: 21728,
  invalidTriggerPrice: 21729,
} as const
