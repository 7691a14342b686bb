import { dec } from '@dn/core'
import { marketPrice, placeOnEngine } from './asterFakeEnginePlace.js'
import { AsterFakeError } from './asterFakeError.js'
import { filtersOf } from './asterFakeMarket.js'
import type { AsterFakeOrder, AsterFakeState } from './asterFakeState.js'

/** The conditional order types and whether each fills as a market order. */
export const CONDITIONAL: Readonly<Record<string, { market: boolean }>> = {
  STOP: { market: false },
  TAKE_PROFIT: { market: false },
  STOP_MARKET: { market: true },
  TAKE_PROFIT_MARKET: { market: true },
}

/**
 * True once `price` reached a conditional order's `stopPrice` (futures v3
 * doc "New Order"): STOP / STOP_MARKET — BUY at or above, SELL at or
 * below; TAKE_PROFIT / TAKE_PROFIT_MARKET — BUY at or below, SELL at or
 * above.
 */
export function reached(
  type: string,
  side: 'BUY' | 'SELL',
  price: string,
  stopPrice: string,
): boolean {
  const stop = type === 'STOP' || type === 'STOP_MARKET'
  const up = stop === (side === 'BUY')
  return up ? dec(price).gte(stopPrice) : dec(price).lte(stopPrice)
}

function fire(state: AsterFakeState, o: AsterFakeOrder): void {
  const t = state.triggers.get(o.orderId)
  if (!t) return
  const market = CONDITIONAL[o.type]?.market ?? true
  try {
    placeOnEngine(state, o.user, {
      symbol: o.symbol,
      side: o.side,
      quantity: o.quantity ?? '0',
      price: market
        ? marketPrice(state, filtersOf(state, o.symbol), o.symbol, o.side)
        : o.price,
      tif: market ? 'IOC' : o.timeInForce,
      reduceOnly: o.reduceOnly,
      clientOrderId: o.clientOrderId,
    })
    t.status = 'TRIGGERED'
  } catch (e) {
    // refused at the trigger (margin, reduce-only, …): the order expires
    if (!(e instanceof AsterFakeError)) throw e
    t.status = 'EXPIRED'
  }
  t.updateTime = state.now()
  state.version += 1
}

/**
 * Cancels the waiting conditional orders of every countdownCancelAll whose
 * time has come (placed before it), then forgets the countdown.
 */
function fireCountdowns(state: AsterFakeState): void {
  const now = state.now()
  for (const [key, at] of state.countdowns) {
    if (at > now) continue
    state.countdowns.delete(key)
    for (const [id, t] of state.triggers) {
      const o = state.byOrderId.get(id)
      if (t.status !== 'NEW' || !o || `${o.user}|${o.symbol}` !== key) continue
      if (o.time >= at) continue
      t.status = 'CANCELED'
      t.updateTime = at
    }
    state.version += 1
  }
}

/**
 * Places every waiting conditional order whose stop price the mark has
 * reached on the engine (both working types read the engine's mark, the
 * only price it has), after cancelling those a due countdownCancelAll
 * covers. Run before each request is served: a mark that crossed and came
 * back between two requests is not seen.
 */
export function sweepTriggers(state: AsterFakeState): void {
  fireCountdowns(state)
  for (const [id, t] of state.triggers) {
    if (t.status !== 'NEW') continue
    const o = state.byOrderId.get(id)
    if (!o?.stopPrice) continue
    const mark = state.exchange.quote(o.symbol).mark
    if (reached(o.type, o.side, mark, o.stopPrice)) fire(state, o)
  }
}
