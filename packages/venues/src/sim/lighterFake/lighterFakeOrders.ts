import { dec, VenueRejectedError } from '@dn/core'
import { placeOnEngine } from './lighterFakeEngineOrder.js'
import { FAKE_CODES, LighterFakeError } from './lighterFakeError.js'
import { checkOrderRules, isTriggerType } from './lighterFakeOrderRules.js'
import {
  engineOrderId,
  FIRST_ORDER_INDEX,
  keyId,
  type LighterFakeOrder,
  type LighterFakeState,
  marketById,
} from './lighterFakeState.js'
import { dropWaiting, isWaiting } from './lighterFakeTriggers.js'
import {
  checkFreshness,
  consumeNonce,
  num,
  type TxEnvelope,
  verifyL2,
} from './lighterFakeTx.js'

const MAX_CLIENT_ORDER_INDEX = 2 ** 48 - 1
const MAX_PRICE = 2 ** 32 - 1

const refuse = (code: number, message: string) =>
  new LighterFakeError(code, message)

/**
 * CreateOrder (14). Checked at the API (400, nonce kept): market, client
 * order index (21727, 21728 when it exists), type, time in force,
 * trigger price and expiry (`lighterFakeOrderRules.ts`), base amount
 * (21701), price (21702), minimums (21706). Then the nonce is consumed
 * and the engine executes it, or, for a stop-loss / take-profit, it waits
 * for its mark (`lighterFakeTriggers.ts`); an engine
 * refusal (margin, post-only crossing, reduce-only) is the sequencer's:
 * the order is recorded with a `canceled-...` status.
 */
export function createOrderTx(
  state: LighterFakeState,
  env: TxEnvelope,
  publicKeyHex: string,
  owner: string,
): string {
  const i = env.info
  const f = [
    'MarketIndex',
    'ClientOrderIndex',
    'BaseAmount',
    'Price',
    'IsAsk',
    'Type',
    'TimeInForce',
    'ReduceOnly',
    'TriggerPrice',
    'OrderExpiry',
  ].map((k) => num(i, k))
  const hash = verifyL2(state, env, f, publicKeyHex)
  checkFreshness(state, env)
  const [marketId = 0, coi = 0, base = 0, price = 0, isAsk, type, tif = 0] = f
  const [reduceOnly, trigger, expiry = 0] = f.slice(7)
  const market = marketById(state, marketId)
  if (!market) throw refuse(FAKE_CODES.invalidMarket, 'invalid market index')
  if (coi < 0 || coi > MAX_CLIENT_ORDER_INDEX) {
    throw refuse(
      FAKE_CODES.invalidClientOrderIndex,
      'invalid client order index',
    )
  }
  if (coi > 0 && state.orders.has(keyId(env.accountIndex, coi))) {
    throw refuse(
      FAKE_CODES.clientOrderIndexExists,
      'client order index already exists',
    )
  }
  const now = state.now()
  checkOrderRules(type ?? 0, tif, trigger ?? 0, expiry, now)
  if (base <= 0)
    throw refuse(FAKE_CODES.invalidBaseAmount, 'invalid base amount')
  if (price < 1 || price > MAX_PRICE) {
    throw refuse(FAKE_CODES.invalidPrice, 'invalid price')
  }
  const size = dec(base).div(dec(10).pow(market.sizeDecimals))
  const px = dec(price).div(dec(10).pow(market.priceDecimals))
  if (
    reduceOnly !== 1 &&
    (size.lt(market.minBase) || size.mul(px).lt(market.minQuote))
  ) {
    throw refuse(
      FAKE_CODES.invalidAmounts,
      'invalid order base or quote amount',
    )
  }
  consumeNonce(state, env)
  const engineId = engineOrderId(
    env.accountIndex,
    coi > 0 ? coi : -state.nextPlain++,
  )
  const order: LighterFakeOrder = {
    accountIndex: env.accountIndex,
    owner,
    market,
    clientOrderIndex: coi,
    orderIndex: state.nextOrderIndex++,
    isAsk: isAsk === 1,
    price,
    baseAmount: base,
    timeInForce: tif,
    reduceOnly: reduceOnly === 1,
    orderExpiry: expiry,
    timestamp: now,
    engineId,
    refusal: null,
    txHash: hash,
    nonce: env.nonce,
    type,
    ...(isTriggerType(type ?? 0)
      ? { trigger: { price: trigger ?? 0, firedAt: null } }
      : {}),
  }
  const placed = order.trigger
    ? order
    : { ...order, refusal: placeOnEngine(state, order) }
  if (placed.trigger) state.waitingTriggers.add(placed.orderIndex)
  if (coi > 0) state.orders.set(keyId(env.accountIndex, coi), placed)
  state.ordersByIndex.set(placed.orderIndex, placed)
  return hash
}

/** True while the order is active: resting on the engine, or waiting for its trigger. */
export function isLive(state: LighterFakeState, o: LighterFakeOrder): boolean {
  if (isWaiting(o)) return true
  if (o.refusal !== null) return false
  const view = state.exchange.order(o.owner, o.engineId, o.market.symbol)
  return view?.state === 'open' || view?.state === 'partially_filled'
}

/**
 * CancelOrder (15) by order index (>= 2^48) or client order index. An
 * index the account does not own on that market is 21700; an order that
 * is already final is accepted and left as it is; a waiting trigger
 * order is dropped (`canceled`) before it reaches the engine.
 */
export function cancelOrderTx(
  state: LighterFakeState,
  env: TxEnvelope,
  publicKeyHex: string,
): string {
  const marketId = num(env.info, 'MarketIndex')
  const index = num(env.info, 'Index')
  const hash = verifyL2(state, env, [marketId, index], publicKeyHex)
  checkFreshness(state, env)
  const order =
    index >= FIRST_ORDER_INDEX
      ? state.ordersByIndex.get(index)
      : state.orders.get(keyId(env.accountIndex, index))
  if (
    !order ||
    order.accountIndex !== env.accountIndex ||
    order.market.marketId !== marketId
  ) {
    throw refuse(FAKE_CODES.invalidOrderIndex, 'invalid order index')
  }
  consumeNonce(state, env)
  if (isWaiting(order)) dropWaiting(state, order, 'canceled')
  else if (isLive(state, order)) {
    state.exchange.cancel(order.owner, order.engineId, order.market.symbol)
  }
  return hash
}

/** UpdateLeverage (20): leverage = floor(10 000 / fraction). */
export function updateLeverageTx(
  state: LighterFakeState,
  env: TxEnvelope,
  publicKeyHex: string,
  owner: string,
): string {
  const f = ['MarketIndex', 'InitialMarginFraction', 'MarginMode'].map((k) =>
    num(env.info, k),
  )
  const hash = verifyL2(state, env, f, publicKeyHex)
  checkFreshness(state, env)
  const [marketId = 0, imf = 0, mode] = f
  const market = marketById(state, marketId)
  if (!market) throw refuse(FAKE_CODES.invalidMarket, 'invalid market index')
  if (imf < 1 || imf > 10_000 || (mode !== 0 && mode !== 1)) {
    throw refuse(FAKE_CODES.invalidMarginFraction, 'invalid margin fractions')
  }
  try {
    state.exchange.setLeverage(
      owner,
      market.symbol,
      Math.max(1, Math.floor(10_000 / imf)),
      mode === 1 ? 'isolated' : 'cross',
    )
  } catch (e) {
    if (e instanceof VenueRejectedError) {
      throw refuse(FAKE_CODES.invalidMarginFraction, e.reason)
    }
    throw e
  }
  consumeNonce(state, env)
  return hash
}
