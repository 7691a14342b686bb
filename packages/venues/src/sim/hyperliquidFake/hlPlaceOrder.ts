import {
  dec,
  type TimeInForce,
  VenueAccountNotFoundError,
  VenueRejectedError,
} from '@dn/core'
import { isValidHlPrice } from '../../hyperliquid/precision/formatHlPrice.js'
import { isObj } from '../../wire/jsonFields.js'
import {
  builderFeeRate,
  checkBuilderFee,
  readBuilder,
} from './hlBuilderFees.js'
import { marketOfAsset } from './hlDexes.js'
import type {
  HlFakeBuilder,
  HlFakeOrder,
  HlFakeState,
  HlFakeTrigger,
} from './hlFakeState.js'
import { hlStatus, stepDecimals } from './hlOrderWire.js'

type Json = Record<string, unknown>
const CLOID = /^0x[0-9a-fA-F]{32}$/

/**
 * Limit tifs the venue takes (nktkas `order`): `FrontendMarket` is the
 * app's market order, run here as an IOC at its limit.
 */
const HL_TIFS = ['Gtc', 'Ioc', 'Alo', 'FrontendMarket'] as const
type HlTif = (typeof HL_TIFS)[number]

/** Oids of trigger orders, above any the engine hands out. */
const HL_TRIGGER_OID_BASE = 10_000_000_000

const err = (response: string) => ({ status: 'err', response })

/** One entry of an order action's `statuses`. */
export type HlOrderStatus =
  | { resting: { oid: number; cloid?: string } }
  | { filled: { totalSz: string; avgPx: string; oid: number; cloid?: string } }
  | { error: string }

/**
 * Answers a verified `order` action: the builder is checked first (a
 * refusal refuses the whole action), then each order in turn.
 */
export function placeHlOrders(
  state: HlFakeState,
  user: string,
  action: Json,
): unknown {
  const orders = action.orders
  if (!Array.isArray(orders) || orders.length === 0 || !orders.every(isObj)) {
    return err(
      'Failed to deserialize the JSON body into the target type: orders',
    )
  }
  const refused = checkBuilderFee(state, user, action.builder)
  if (refused) return err(refused)
  const builder = readBuilder(action.builder)
  const statuses = orders.map((o: Json) =>
    placeHlOrder(state, user, o, undefined, builder),
  )
  return { status: 'ok', response: { type: 'order', data: { statuses } } }
}

/**
 * Places one wire order (`{a, b, p, s, r, t, c?}`) and answers its status.
 * @param engineId the engine's client id; default: the cloid, if any
 * @param builder the action's builder code, charged on every fill
 */
export function placeHlOrder(
  state: HlFakeState,
  user: string,
  o: Json,
  engineId?: string,
  builder?: HlFakeBuilder,
): HlOrderStatus {
  const rules = marketOfAsset(state, o.a)
  if (!rules) return { error: 'Asset not found.' }
  const szDecimals = stepDecimals(rules.sizeStep)
  const p = typeof o.p === 'string' ? o.p : ''
  const s = typeof o.s === 'string' ? o.s : ''
  if (!isValidHlPrice(p, szDecimals))
    return { error: 'Order has invalid price.' }
  if (!validSize(s, szDecimals)) return { error: 'Order has invalid size.' }
  const t = (o.t ?? {}) as { limit?: { tif?: unknown }; trigger?: unknown }
  const trigger = t.trigger === undefined ? undefined : readTrigger(t.trigger)
  const tif = t.limit?.tif
  if (t.trigger !== undefined && !trigger) {
    return { error: 'Invalid TP/SL price.' }
  }
  if (!trigger && !HL_TIFS.includes(tif as HlTif)) {
    return { error: 'Order has invalid time in force.' }
  }
  if (trigger && !isValidHlPrice(trigger.triggerPx, szDecimals)) {
    return { error: 'Invalid TP/SL price.' }
  }
  const cloid =
    typeof o.c === 'string' && CLOID.test(o.c) ? o.c.toLowerCase() : null
  if (o.c !== undefined && o.c !== null && cloid === null) {
    return { error: 'Invalid cloid.' }
  }
  const id = engineId ?? cloid ?? `hlfake-${user}-${state.nextPlain++}`
  // the engine numbers its orders from 1; waiting triggers are not on it
  const oid = trigger ? HL_TRIGGER_OID_BASE + state.nextPlain++ : 0
  const rec: HlFakeOrder = {
    user,
    coin: rules.symbol,
    side: o.b === true ? 'B' : 'A',
    limitPx: p,
    origSz: s,
    oid,
    // stamped before it can fill, so its fills never predate it
    timestamp: state.now(),
    cloid,
    engineId: id,
    tif: trigger ? null : (tif as HlTif),
    reduceOnly: o.r === true,
    ...(trigger ? { trigger } : {}),
    ...(builder ? { builder } : {}),
  }
  const withCloid = cloid ? { cloid } : {}
  if (trigger) {
    state.ordersByOid.set(oid, rec)
    if (cloid) state.oidByCloid.set(`${user}|${cloid}`, oid)
    state.triggers.set(oid, { status: 'waitingForTrigger', at: rec.timestamp })
    return { resting: { oid, ...withCloid } }
  }
  return sendToEngine(state, rec, o.a as number)
}

/**
 * Places a recorded order on the engine under the engine's own oid and
 * records it by that oid. A trigger order comes here when it triggers:
 * as an IOC at its limit when `isMarket`, else as a GTC.
 */
export function sendToEngine(
  state: HlFakeState,
  draft: HlFakeOrder,
  asset: number,
): HlOrderStatus {
  const timeInForce: TimeInForce = draft.trigger
    ? draft.trigger.isMarket
      ? 'ioc'
      : 'gtc'
    : draft.tif === 'Alo'
      ? 'post_only'
      : draft.tif === 'Ioc'
        ? 'ioc'
        : 'gtc'
  let view: ReturnType<typeof state.exchange.place>
  try {
    view = state.exchange.place(
      draft.user,
      {
        market: draft.coin,
        side: draft.side === 'B' ? 'long' : 'short',
        size: draft.origSz,
        price: draft.limitPx,
        timeInForce,
        reduceOnly: draft.reduceOnly === true,
        clientOrderId: draft.engineId,
      },
      builderFeeRate(draft.builder),
    )
  } catch (e) {
    if (e instanceof VenueRejectedError) return { error: e.reason }
    if (e instanceof VenueAccountNotFoundError) {
      return { error: 'Insufficient margin to place order.' }
    }
    throw e
  }
  // a trigger keeps the oid it was answered with; others take the engine's
  const oid = draft.trigger ? draft.oid : Number(view.venueOrderId)
  const rec = { ...draft, oid }
  state.ordersByOid.set(oid, rec)
  if (rec.cloid) state.oidByCloid.set(`${rec.user}|${rec.cloid}`, oid)
  const withCloid = rec.cloid ? { cloid: rec.cloid } : {}
  const filled = dec(view.filledBase)
  if (view.state === 'filled' || (timeInForce === 'ioc' && filled.gt(0))) {
    return {
      filled: {
        totalSz: view.filledBase,
        avgPx: view.averagePrice ?? rec.limitPx,
        oid,
        ...withCloid,
      },
    }
  }
  if (view.state === 'open' || view.state === 'partially_filled') {
    return { resting: { oid, ...withCloid } }
  }
  if (timeInForce === 'ioc') {
    return {
      error: `Order could not immediately match against any resting orders. asset=${asset}`,
    }
  }
  return { error: view.reason ?? hlStatus(view) }
}

function readTrigger(v: unknown): HlFakeTrigger | undefined {
  if (!v || typeof v !== 'object') return undefined
  const t = v as Json
  if (
    typeof t.isMarket !== 'boolean' ||
    typeof t.triggerPx !== 'string' ||
    !/^\d+(\.\d+)?$/.test(t.triggerPx) ||
    !dec(t.triggerPx).gt(0) ||
    (t.tpsl !== 'tp' && t.tpsl !== 'sl')
  ) {
    return undefined
  }
  return { isMarket: t.isMarket, triggerPx: t.triggerPx, tpsl: t.tpsl }
}

function validSize(s: string, szDecimals: number): boolean {
  if (!/^\d+(\.\d+)?$/.test(s)) return false
  const d = dec(s)
  return d.gt(0) && d.decimalPlaces() <= szDecimals
}
