import { buildL2Tx } from './signL2Tx.js'
import type { LighterTxAttributes } from './txAttributes.js'
import { txInteger } from './txInteger.js'
import type { LighterSignedTx, LighterTxHeader } from './types.js'

/**
 * CreateOrder (tx type 14), signed by an API key. Field rules follow
 * lighter-go `L2CreateOrderTxInfo.Validate`: a market or IOC limit order
 * has expiry 0, a resting limit (good-till-time, post-only) needs one; a
 * stop-loss / take-profit needs a trigger price and an expiry, and its
 * market variant is IOC.
 *
 * @module
 */

/** lighter-go `TxTypeL2CreateOrder`. */
export const CREATE_ORDER_TX_TYPE = 14

/**
 * Order types (lighter-go `constants.go`): the stop-loss and take-profit
 * types wait for the mark to cross `triggerPrice`, then trade as a market
 * (IOC) or limit order; TWAP is not used here.
 */
export const LIGHTER_ORDER_TYPE = {
  limit: 0,
  market: 1,
  stopLoss: 2,
  stopLossLimit: 3,
  takeProfit: 4,
  takeProfitLimit: 5,
  twap: 6,
} as const
/** Time in force: 0 IOC, 1 good-till-time, 2 post-only. */
export const LIGHTER_TIME_IN_FORCE = {
  ioc: 0,
  goodTillTime: 1,
  postOnly: 2,
} as const

const MAX_CLIENT_ORDER_INDEX = 2 ** 48 - 1
const MAX_BASE_AMOUNT = 2 ** 48 - 1
const MAX_PRICE = 2 ** 32 - 1
const MAX_TIMESTAMP = 2 ** 48 - 1

interface CreateOrderFields {
  readonly marketIndex: number
  /** 1..2^48-1; 0 = none */
  readonly clientOrderIndex: number
  /** size x 10^size_decimals */
  readonly baseAmount: number
  /** price x 10^price_decimals (a market order's worst price) */
  readonly price: number
  readonly isAsk: boolean
  readonly type: number
  readonly timeInForce: number
  readonly reduceOnly: boolean
  readonly triggerPrice?: number | undefined
  /** ms since the epoch; 0 for market and IOC orders */
  readonly orderExpiry: number
}

export interface CreateOrderParameters
  extends LighterTxHeader,
    CreateOrderFields {
  readonly privateKey: string
  readonly attributes?: LighterTxAttributes | undefined
  /** test-only fixed Schnorr nonce */
  readonly nonceK?: bigint | undefined
}

/** The ten type fields of the hash, after lighter-go's checks. */
/** The order's fields as Go's struct has them (their order is the hash's). */
function orderFields(p: CreateOrderFields): Record<string, number> {
  const trigger = p.triggerPrice ?? 0
  const ioc = p.timeInForce === LIGHTER_TIME_IN_FORCE.ioc
  const t = LIGHTER_ORDER_TYPE
  // lighter-go's per-type rules: only the trigger types carry a trigger
  // price, and they wait until an expiry even when IOC once triggered
  if (p.type === t.market && (!ioc || p.orderExpiry !== 0 || trigger !== 0)) {
    throw new RangeError('a market order is IOC with orderExpiry 0')
  }
  if (p.type === t.limit && trigger !== 0) {
    throw new RangeError('a limit order has no trigger price')
  }
  if (p.type === t.limit && ioc && p.orderExpiry !== 0) {
    throw new RangeError('an IOC order has orderExpiry 0')
  }
  if (p.type === t.limit && !ioc && p.orderExpiry === 0) {
    throw new RangeError('a resting order needs an orderExpiry')
  }
  if ((p.type === t.stopLoss || p.type === t.takeProfit) && !ioc) {
    throw new RangeError('a stop-loss or take-profit market order is IOC')
  }
  if (
    p.type >= t.stopLoss &&
    p.type <= t.takeProfitLimit &&
    (trigger === 0 || p.orderExpiry === 0)
  ) {
    throw new RangeError('a trigger order needs a triggerPrice and an expiry')
  }
  if (
    p.type === t.twap &&
    (p.timeInForce !== LIGHTER_TIME_IN_FORCE.goodTillTime ||
      trigger !== 0 ||
      p.orderExpiry === 0)
  ) {
    throw new RangeError('a TWAP order is good-till-time with an expiry')
  }
  if (p.baseAmount === 0 && !p.reduceOnly) {
    throw new RangeError('baseAmount 0 is only allowed reduce-only')
  }
  return {
    MarketIndex: txInteger('marketIndex', p.marketIndex, 0, 4094),
    ClientOrderIndex: txInteger(
      'clientOrderIndex',
      p.clientOrderIndex,
      0,
      MAX_CLIENT_ORDER_INDEX,
    ),
    BaseAmount: txInteger('baseAmount', p.baseAmount, 0, MAX_BASE_AMOUNT),
    Price: txInteger('price', p.price, 1, MAX_PRICE),
    IsAsk: p.isAsk ? 1 : 0,
    Type: txInteger('type', p.type, 0, 6),
    TimeInForce: txInteger('timeInForce', p.timeInForce, 0, 2),
    ReduceOnly: p.reduceOnly ? 1 : 0,
    TriggerPrice: txInteger('triggerPrice', trigger, 0, MAX_PRICE),
    OrderExpiry: txInteger('orderExpiry', p.orderExpiry, 0, MAX_TIMESTAMP),
  }
}

/**
 * Builds and signs a CreateOrder tx.
 *
 * @returns `{ txType: 14, txInfo, txHash, messageToSign: '' }`; `txInfo`
 *   is Go's JSON of `L2CreateOrderTxInfo` (PascalCase, struct order).
 * @throws {RangeError} on a malformed key or an invalid field combination.
 * @example
 * createOrder({ ...header, privateKey, marketIndex: 0, clientOrderIndex: 7,
 *   baseAmount: 1000, price: 350000, isAsk: false, type: 0,
 *   timeInForce: 0, reduceOnly: false, orderExpiry: 0 })
 */
export function createOrder(params: CreateOrderParameters): LighterSignedTx {
  const body = orderFields(params)
  return buildL2Tx({
    txType: CREATE_ORDER_TX_TYPE,
    header: params,
    fields: Object.values(body),
    body,
    privateKey: params.privateKey,
    attributes: params.attributes,
    nonceK: params.nonceK,
  })
}
