import { buildL2Tx } from './signL2Tx.js'
import type { LighterTxAttributes } from './txAttributes.js'
import { txInteger } from './txInteger.js'
import type { LighterSignedTx, LighterTxHeader } from './types.js'

/**
 * UpdateLeverage (tx type 20) sets a market's initial margin fraction
 * (in 1/10 000: `10 000 / leverage`) and margin mode for the account.
 *
 * @module
 */

/** lighter-go `TxTypeL2UpdateLeverage`. */
export const UPDATE_LEVERAGE_TX_TYPE = 20

/** lighter-go `MarginFractionTick`: a fraction of 10 000 is 100%. */
const LIGHTER_MARGIN_FRACTION_TICK = 10_000

interface UpdateLeverageParameters extends LighterTxHeader {
  readonly privateKey: string
  readonly marketIndex: number
  /** 1..10 000, e.g. 1000 = 10% = 10x */
  readonly initialMarginFraction: number
  /** 0 cross, 1 isolated */
  readonly marginMode: 0 | 1
  readonly attributes?: LighterTxAttributes | undefined
  readonly nonceK?: bigint | undefined
}

/** The margin fraction of a leverage, rounded up so it never exceeds it. */
export function marginFractionOf(leverage: number): number {
  if (!(leverage >= 1)) throw new RangeError(`leverage must be >= 1`)
  return Math.ceil(LIGHTER_MARGIN_FRACTION_TICK / leverage)
}

/**
 * Builds and signs an UpdateLeverage tx.
 *
 * @returns `{ txType: 20, txInfo, txHash, messageToSign: '' }`.
 * @throws {RangeError} on an out-of-range field.
 * @example
 * updateLeverage({ ...header, privateKey, marketIndex: 0,
 *   initialMarginFraction: marginFractionOf(10), marginMode: 0 })
 */
export function updateLeverage(
  params: UpdateLeverageParameters,
): LighterSignedTx {
  const market = txInteger('marketIndex', params.marketIndex, 0, 254)
  const imf = txInteger(
    'initialMarginFraction',
    params.initialMarginFraction,
    1,
    LIGHTER_MARGIN_FRACTION_TICK,
  )
  const mode = txInteger('marginMode', params.marginMode, 0, 1)
  return buildL2Tx({
    txType: UPDATE_LEVERAGE_TX_TYPE,
    header: params,
    fields: [market, imf, mode],
    body: { MarketIndex: market, InitialMarginFraction: imf, MarginMode: mode },
    privateKey: params.privateKey,
    attributes: params.attributes,
    nonceK: params.nonceK,
  })
}
