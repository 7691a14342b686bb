import { LIGHTER_ORDER_TYPE as T } from '../../lighter/signer/createOrder.js'
import { FAKE_CODES, LighterFakeError } from './lighterFakeError.js'

/**
 * The order type, time in force, trigger price and expiry rules of
 * lighter-go `L2CreateOrderTxInfo.Validate`, with the venue's codes
 * (ccxt's table): a market order is IOC without expiry; an IOC limit has
 * no expiry, a resting one needs a future one; neither has a trigger
 * price (21729). Stop-loss (2) and take-profit (4) are IOC (21705),
 * their limit variants (3, 5) take any time in force; all four need a
 * trigger price (21729) and an expiry (21711), since they wait until it.
 * TWAP (6) is not modelled (21710). The fake's older refusals of plain
 * orders keep 21711 for a bad time in force.
 *
 * @module
 */

const MAX_TRIGGER_PRICE = 2 ** 32 - 1

const refuse = (code: number, message: string) =>
  new LighterFakeError(code, message)

/** True for the stop-loss and take-profit types (market and limit). */
export function isTriggerType(type: number): boolean {
  return type >= T.stopLoss && type <= T.takeProfitLimit
}

/** @throws {LighterFakeError} when the combination is not allowed. */
export function checkOrderRules(
  type: number,
  tif: number,
  trigger: number,
  expiry: number,
  now: number,
): void {
  if (type !== T.limit && type !== T.market && !isTriggerType(type)) {
    throw refuse(FAKE_CODES.unsupportedOrderType, 'unsupported order type')
  }
  if (tif < 0 || tif > 2) {
    throw refuse(FAKE_CODES.invalidExpiry, 'invalid expiry')
  }
  const ioc = tif === 0
  if (!isTriggerType(type)) {
    if (trigger !== 0) {
      throw refuse(
        FAKE_CODES.invalidTriggerPrice,
        'invalid order trigger price',
      )
    }
    if ((type === T.market && !ioc) || (ioc ? expiry !== 0 : expiry <= now)) {
      throw refuse(FAKE_CODES.invalidExpiry, 'invalid expiry')
    }
    return
  }
  if ((type === T.stopLoss || type === T.takeProfit) && !ioc) {
    throw refuse(FAKE_CODES.invalidTimeInForce, 'invalid OrderTimeInForce')
  }
  if (trigger < 1 || trigger > MAX_TRIGGER_PRICE) {
    throw refuse(FAKE_CODES.invalidTriggerPrice, 'invalid order trigger price')
  }
  if (expiry <= now) throw refuse(FAKE_CODES.invalidExpiry, 'invalid expiry')
}
