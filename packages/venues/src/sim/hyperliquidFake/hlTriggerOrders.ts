import { dec } from '@dn/core'
import { assetOfSymbol } from './hlDexes.js'
import type { HlFakeState } from './hlFakeState.js'
import { firesAbove } from './hlOrderWire.js'
import { sendToEngine } from './hlPlaceOrder.js'

/**
 * Trigger (stop / take-profit) orders on the fake. A posted
 * `t: {trigger: {isMarket, triggerPx, tpsl}}` is answered `resting` and
 * waits outside the engine (`state.triggers`), listed by `openOrders`,
 * `frontendOpenOrders` and `orderStatus` (status `open`, `isTrigger`,
 * `triggerPx`, "Price above/below X"). When the mark reaches the trigger
 * (a buy stop or a sell take-profit: mark ≥ triggerPx; a buy take-profit
 * or a sell stop: mark ≤ triggerPx) it is placed on the engine under the
 * same oid: an IOC at its limit price when `isMarket` (the venue runs a
 * market order with the posted price as its slippage bound), else a GTC
 * limit. The engine then fills it against its book like any order.
 *
 * Not modelled: the mark is read when a request reaches the fake, so a
 * mark that crosses and comes back between two requests does not fire
 * (the venue watches every mark); margin is checked when it triggers, not
 * when it is posted; `normalTpsl` / `positionTpsl` groupings (children,
 * `waitingForFill`) are not modelled.
 *
 * @module
 */

/** Fires every waiting trigger whose condition the current mark meets. */
export function fireHlTriggers(state: HlFakeState): void {
  for (const [oid, t] of state.triggers) {
    if (t.status !== 'waitingForTrigger') continue
    const rec = state.ordersByOid.get(oid)
    if (!rec?.trigger) continue
    const mark = dec(state.exchange.quote(rec.coin).mark)
    const px = dec(rec.trigger.triggerPx)
    if (firesAbove(rec) ? mark.lt(px) : mark.gt(px)) continue
    const at = state.now()
    state.version += 1
    const status = sendToEngine(state, rec, assetOfSymbol(state, rec.coin))
    state.triggers.set(oid, {
      status: 'error' in status ? 'rejected' : 'triggered',
      at,
    })
  }
}
