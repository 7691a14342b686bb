import { buildL2Tx } from './signL2Tx.js'
import type { LighterTxAttributes } from './txAttributes.js'
import { txInteger } from './txInteger.js'
import type { LighterSignedTx, LighterTxHeader } from './types.js'

/**
 * CancelAllOrders (tx type 16): immediately (time 0), scheduled at `time`
 * (a dead-man switch), or abort a scheduled one (time 0). A market-scoped
 * cancel-all uses attribute `cancelAllMarketIndex`.
 *
 * @module
 */

/** lighter-go `TxTypeL2CancelAllOrders`. */
export const CANCEL_ALL_ORDERS_TX_TYPE = 16

/** 0 immediate, 1 scheduled, 2 abort scheduled (lighter-go constants). */
export const LIGHTER_CANCEL_ALL = {
  immediate: 0,
  scheduled: 1,
  abort: 2,
} as const

interface CancelAllOrdersParameters extends LighterTxHeader {
  readonly privateKey: string
  readonly timeInForce: number
  /** ms since the epoch for `scheduled`, else 0 */
  readonly time: number
  readonly attributes?: LighterTxAttributes | undefined
  readonly nonceK?: bigint | undefined
}

/**
 * Builds and signs a CancelAllOrders tx.
 *
 * @returns `{ txType: 16, txInfo, txHash, messageToSign: '' }`.
 * @throws {RangeError} when `time` does not suit `timeInForce`.
 * @example
 * cancelAllOrders({ ...header, privateKey, timeInForce: 0, time: 0 })
 */
export function cancelAllOrders(
  params: CancelAllOrdersParameters,
): LighterSignedTx {
  const tif = txInteger('timeInForce', params.timeInForce, 0, 2)
  const time = txInteger('time', params.time, 0, 2 ** 48 - 1)
  if ((tif === LIGHTER_CANCEL_ALL.scheduled) !== (time !== 0)) {
    throw new RangeError('only a scheduled cancel-all carries a time')
  }
  return buildL2Tx({
    txType: CANCEL_ALL_ORDERS_TX_TYPE,
    header: params,
    fields: [tif, time],
    body: { TimeInForce: tif, Time: time },
    privateKey: params.privateKey,
    attributes: params.attributes,
    nonceK: params.nonceK,
  })
}
