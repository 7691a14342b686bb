import { dec } from '@dn/core'
import { LIGHTER_ORDER_TYPE as T } from '../../lighter/signer/createOrder.js'
import { placeOnEngine } from './lighterFakeEngineOrder.js'
import {
  keyId,
  type LighterFakeOrder,
  type LighterFakeState,
} from './lighterFakeState.js'

/**
 * Stop-loss and take-profit orders wait outside the engine (not on the
 * book) until the market's mark price crosses their trigger price, then
 * go to the engine under the same order index as the market (IOC at the
 * order's price) or limit order they carry. A stop-loss sell fires when
 * the mark falls to the trigger or below, a stop-loss buy when it rises
 * to it or above; take-profit the other way round (the usual stop /
 * take-profit rule; that Lighter compares with `<=` / `>=` is
 * [unverified]). A waiting order past its expiry is `canceled-expired`.
 *
 * @module
 */

/** True while a trigger order waits for its mark (neither fired nor dropped). */
export function isWaiting(o: LighterFakeOrder): boolean {
  return o.trigger?.firedAt === null && o.refusal === null
}

/** Puts a changed order in place of the old one in every index. */
function replace(state: LighterFakeState, next: LighterFakeOrder): void {
  state.ordersByIndex.set(next.orderIndex, next)
  if (next.clientOrderIndex > 0) {
    state.orders.set(keyId(next.accountIndex, next.clientOrderIndex), next)
  }
  if (!isWaiting(next)) state.waitingTriggers.delete(next.orderIndex)
}

/** Ends a waiting trigger order without it ever reaching the engine. */
export function dropWaiting(
  state: LighterFakeState,
  o: LighterFakeOrder,
  status: string,
): void {
  replace(state, { ...o, refusal: status })
}

/** Whether the mark has reached the order's trigger price. */
function crossed(o: LighterFakeOrder, mark: string): boolean {
  const m = o.market
  const trigger = dec(o.trigger?.price ?? 0).div(dec(10).pow(m.priceDecimals))
  const stop = o.type === T.stopLoss || o.type === T.stopLossLimit
  // a sell stop and a buy take-profit fire on the way down
  const down = stop === o.isAsk
  return down ? dec(mark).lte(trigger) : dec(mark).gte(trigger)
}

/**
 * Fires every waiting trigger order whose mark has crossed and expires
 * those past their expiry. Called as each request reaches the fake and on
 * the stream's account tick.
 *
 * @returns how many orders changed
 */
export function fireLighterTriggers(state: LighterFakeState): number {
  if (state.waitingTriggers.size === 0) return 0
  const now = state.now()
  const marks = new Map<string, string>()
  let changed = 0
  for (const index of [...state.waitingTriggers]) {
    const o = state.ordersByIndex.get(index)
    if (!o || !isWaiting(o)) {
      state.waitingTriggers.delete(index)
      continue
    }
    if (o.orderExpiry <= now) {
      dropWaiting(state, o, 'canceled-expired')
      changed++
      continue
    }
    const symbol = o.market.symbol
    const mark = marks.get(symbol) ?? state.exchange.quote(symbol).mark
    marks.set(symbol, mark)
    if (!crossed(o, mark)) continue
    const fired = {
      ...o,
      trigger: { price: o.trigger?.price ?? 0, firedAt: now },
    }
    replace(state, { ...fired, refusal: placeOnEngine(state, fired) })
    changed++
  }
  if (changed > 0) state.version += 1
  return changed
}
