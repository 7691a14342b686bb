import { buildL2Tx } from './signL2Tx.js'
import type { LighterTxAttributes } from './txAttributes.js'
import { txInteger } from './txInteger.js'
import type { LighterSignedTx, LighterTxHeader } from './types.js'

/**
 * CancelOrder (tx type 15). `index` is the exchange order index (>= 2^48)
 * or the client order index (< 2^48): Lighter accepts either
 * (lighter-go `cancel_order.go`).
 *
 * @module
 */

/** lighter-go `TxTypeL2CancelOrder`. */
export const CANCEL_ORDER_TX_TYPE = 15

interface CancelOrderParameters extends LighterTxHeader {
  readonly privateKey: string
  readonly marketIndex: number
  readonly index: number
  readonly attributes?: LighterTxAttributes | undefined
  readonly nonceK?: bigint | undefined
}

/**
 * Builds and signs a CancelOrder tx.
 *
 * @returns `{ txType: 15, txInfo, txHash, messageToSign: '' }`.
 * @throws {RangeError} on a malformed key or an out-of-range field.
 * @example
 * cancelOrder({ ...header, privateKey, marketIndex: 0, index: 12345 })
 */
export function cancelOrder(params: CancelOrderParameters): LighterSignedTx {
  const market = txInteger('marketIndex', params.marketIndex, 0, 4094)
  const index = txInteger('index', params.index, 1, Number.MAX_SAFE_INTEGER)
  return buildL2Tx({
    txType: CANCEL_ORDER_TX_TYPE,
    header: params,
    fields: [market, index],
    body: { MarketIndex: market, Index: index },
    privateKey: params.privateKey,
    attributes: params.attributes,
    nonceK: params.nonceK,
  })
}
