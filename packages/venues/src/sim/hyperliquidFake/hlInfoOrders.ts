import { dec, decString } from '@dn/core'
import { dexOfSymbol } from './hlDexes.js'
import {
  accountExists,
  type HlFakeOrder,
  type HlFakeState,
} from './hlFakeState.js'
import { frontendOrder, hlOrderNow, openOrder } from './hlOrderWire.js'

const CLOID = /^0x[0-9a-fA-F]{32}$/

/** A bad `oid` field: the caller answers it as the venue's 422. */
export class HlOidFieldError extends Error {
  override name = 'HlOidFieldError'
}

/**
 * Finds a recorded order of `u` by numeric oid or by cloid hex.
 * @throws HlOidFieldError when `oid` is neither
 */
export function findHlOrder(
  state: HlFakeState,
  u: string,
  oid: unknown,
): HlFakeOrder | undefined {
  let n: number | undefined
  if (typeof oid === 'number') n = oid
  else if (typeof oid === 'string' && CLOID.test(oid)) {
    n = state.oidByCloid.get(`${u}|${oid.toLowerCase()}`)
  } else if (typeof oid === 'string' && /^\d+$/.test(oid)) n = Number(oid)
  else {
    throw new HlOidFieldError(
      'Failed to deserialize the JSON body into the target type: oid',
    )
  }
  const rec = n === undefined ? undefined : state.ordersByOid.get(n)
  return rec?.user === u ? rec : undefined
}

/** `orderStatus`: the order with its real tif, reduce-only, type, trigger. */
export function orderStatus(state: HlFakeState, u: string, oid: unknown) {
  const rec = findHlOrder(state, u, oid)
  const now = rec ? hlOrderNow(state, rec) : null
  if (!rec || !now) return { status: 'unknownOid' }
  return {
    status: 'order',
    order: {
      order: frontendOrder(rec, now.sz),
      status: now.status,
      statusTimestamp: now.statusTimestamp,
    },
  }
}

/**
 * `openOrders` (short form) or `frontendOpenOrders` (full form) of one
 * dex: resting engine orders, then triggers still waiting for the mark.
 */
export function openOrders(
  state: HlFakeState,
  u: string,
  dex: string,
  frontend: boolean,
) {
  if (!accountExists(state, u)) return []
  const shape = frontend ? frontendOrder : openOrder
  const byEngineId = new Map<string, HlFakeOrder>()
  for (const r of state.ordersByOid.values()) {
    if (r.user === u) byEngineId.set(r.engineId, r)
  }
  const out: unknown[] = state.exchange.openOrders(u).flatMap((view) => {
    const rec = byEngineId.get(view.clientOrderId)
    if (!rec || dexOfSymbol(rec.coin) !== dex) return []
    return [shape(rec, decString(dec(view.size).sub(view.filledBase)))]
  })
  for (const [oid, t] of state.triggers) {
    const rec = state.ordersByOid.get(oid)
    if (t.status !== 'waitingForTrigger' || rec?.user !== u) continue
    if (dexOfSymbol(rec.coin) === dex) out.push(shape(rec, rec.origSz))
  }
  return out
}

/** The venue answers at most this many historical orders. */
const HISTORICAL_PAGE = 2000

/**
 * `historicalOrders`: every order of `u` the fake placed, newest first,
 * each `{order, status, statusTimestamp}` as `orderStatus` shows it.
 */
export function historicalOrders(state: HlFakeState, u: string) {
  const out: {
    order: ReturnType<typeof frontendOrder>
    status: string
    statusTimestamp: number
  }[] = []
  for (const rec of state.ordersByOid.values()) {
    if (rec.user !== u) continue
    const now = hlOrderNow(state, rec)
    if (!now) continue
    out.push({
      order: frontendOrder(rec, now.sz),
      status: now.status,
      statusTimestamp: now.statusTimestamp,
    })
  }
  out.sort(
    (a, b) =>
      b.order.timestamp - a.order.timestamp || b.order.oid - a.order.oid,
  )
  return out.slice(0, HISTORICAL_PAGE)
}
