import { dec, decString, type VenueOrder } from '@dn/core'
import {
  accountExists,
  type HlFakeOrder,
  type HlFakeState,
} from './hlFakeState.js'

/**
 * An order the fake placed, in the venue's read shapes: `orderStatus`
 * and `frontendOpenOrders` carry every field below, `openOrders` the
 * short form (`reduceOnly` only when true, `cloid` only when set), as
 * nktkas' `FrontendOpenOrderSchema` / `OpenOrderSchema` and ccxt's
 * `parseOrder` comments show them. A trigger order's condition reads
 * "Price above X" / "Price below X" (ccxt's example of a buy Stop Limit:
 * "Price above 0.6"), its `tif` is null and its `orderType` one of
 * "Stop Market", "Stop Limit", "Take Profit Market", "Take Profit Limit".
 *
 * @module
 */

/** Decimals of a step such as `0.0001` (4). */
export function stepDecimals(step: string): number {
  return dec(step).decimalPlaces()
}

/** Hyperliquid's status word of an engine order. */
export function hlStatus(view: VenueOrder): string {
  if (view.state === 'open' || view.state === 'partially_filled') return 'open'
  if (view.state === 'filled') return 'filled'
  if (view.state === 'rejected') return 'rejected'
  if (view.venueStatus.endsWith('Canceled')) return view.venueStatus
  if (view.venueStatus === 'scheduledCancel') return view.venueStatus
  return 'canceled'
}

/** Where a recorded order stands: its status word and unfilled size. */
interface HlOrderNow {
  readonly status: string
  readonly sz: string
  readonly statusTimestamp: number
}

/** The order's status now: a waiting trigger's own, else the engine's. */
export function hlOrderNow(
  state: HlFakeState,
  rec: HlFakeOrder,
): HlOrderNow | null {
  const trig = state.triggers.get(rec.oid)
  if (trig && trig.status !== 'triggered') {
    return {
      status: trig.status === 'waitingForTrigger' ? 'open' : trig.status,
      sz: trig.status === 'waitingForTrigger' ? rec.origSz : '0.0',
      statusTimestamp: trig.at,
    }
  }
  if (!accountExists(state, rec.user)) return null
  const view = state.exchange.order(rec.user, rec.engineId)
  if (!view) return null
  // `sz` is what is left of the size sent (`origSz`): the engine cuts a
  // reduce-only order down to the position and calls it filled, where
  // the venue shows the rest cancelled, its fill origSz − sz
  const cut = dec(view.size).lt(rec.origSz) && view.state === 'filled'
  return {
    status: cut ? 'reduceOnlyCanceled' : hlStatus(view),
    sz: decString(dec(cut ? rec.origSz : view.size).sub(view.filledBase)),
    statusTimestamp: state.now(),
  }
}

/** True while the order rests: a waiting trigger or a live engine order. */
export function isOpen(state: HlFakeState, rec: HlFakeOrder): boolean {
  return hlOrderNow(state, rec)?.status === 'open'
}

/** The venue's words for when a trigger fires. */
function triggerCondition(rec: HlFakeOrder): string {
  const t = rec.trigger
  if (!t) return 'N/A'
  return `Price ${firesAbove(rec) ? 'above' : 'below'} ${t.triggerPx}`
}

/**
 * A buy stop and a sell take-profit fire when the mark rises to the
 * trigger; a buy take-profit and a sell stop when it falls to it.
 */
export function firesAbove(rec: HlFakeOrder): boolean {
  const buy = rec.side === 'B'
  return rec.trigger?.tpsl === 'sl' ? buy : !buy
}

function orderType(rec: HlFakeOrder): string {
  const t = rec.trigger
  if (!t) return 'Limit'
  const kind = t.tpsl === 'tp' ? 'Take Profit' : 'Stop'
  return `${kind} ${t.isMarket ? 'Market' : 'Limit'}`
}

/** What every order shape starts with, in the venue's key order. */
const orderHead = (rec: HlFakeOrder, sz: string) => ({
  coin: rec.coin,
  side: rec.side,
  limitPx: rec.limitPx,
  sz,
  oid: rec.oid,
  timestamp: rec.timestamp,
})

/** The `orderStatus` / `frontendOpenOrders` shape. */
export function frontendOrder(rec: HlFakeOrder, sz: string) {
  return {
    ...orderHead(rec, sz),
    triggerCondition: triggerCondition(rec),
    isTrigger: rec.trigger !== undefined,
    triggerPx: rec.trigger?.triggerPx ?? '0.0',
    children: [],
    isPositionTpsl: false,
    reduceOnly: rec.reduceOnly === true,
    orderType: orderType(rec),
    origSz: rec.origSz,
    tif: rec.trigger ? null : (rec.tif ?? 'Gtc'),
    cloid: rec.cloid,
  }
}

/** The `openOrders` shape. */
export function openOrder(rec: HlFakeOrder, sz: string) {
  return {
    ...orderHead(rec, sz),
    origSz: rec.origSz,
    ...(rec.cloid ? { cloid: rec.cloid } : {}),
    ...(rec.reduceOnly ? { reduceOnly: true } : {}),
  }
}
