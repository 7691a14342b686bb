import { dec, decString, type VenueOrder } from '@dn/core'
import { venueStyle } from '../venueStyle.js'
import type { AsterFakeOrder, AsterFakeState } from './asterFakeState.js'

/**
 * The engine orders behind one Aster order. The engine cannot amend an
 * order and never takes a client order id twice (a cancelled one stays
 * taken), so Modify Order cancels the engine order standing for an Aster
 * order and places a new one, a leg, under `<clientOrderId>~<orderId>.<n>`:
 * `~` is outside Aster's client order id alphabet, so no posted id can
 * take it first, and the orderId in it leads a fill of any leg back to
 * its Aster order. The fake remembers what earlier legs filled
 * (`priorFilled`) so the order reads as one.
 *
 * @module
 */

const LEG = /~(\d+)\.\d+$/

const style = venueStyle('aster')

/** The engine's client order id of the order's current leg. */
export function engineIdOf(o: AsterFakeOrder): string {
  return o.engineId ?? o.clientOrderId
}

/** A client order id for the order's next leg, free on the engine. */
export function nextEngineId(state: AsterFakeState, o: AsterFakeOrder) {
  let n = (o.modifies ?? 0) + 1
  let id = `${o.clientOrderId}~${o.orderId}.${n}`
  while (state.exchange.order(o.user, id) !== null) {
    n += 1
    id = `${o.clientOrderId}~${o.orderId}.${n}`
  }
  return id
}

/**
 * The Aster order an engine order (a fill's client order id) belongs to:
 * its first leg carries the Aster client order id, later ones name the
 * orderId.
 */
export function orderOfEngineId(
  state: AsterFakeState,
  user: string,
  engineId: string,
): AsterFakeOrder | undefined {
  const first = state.orders.get(`${user}|${engineId}`)
  if (first) return first
  const leg = LEG.exec(engineId)
  const o = leg ? state.byOrderId.get(Number(leg[1])) : undefined
  return o?.user === user ? o : undefined
}

/**
 * The order as Aster reports it from its current leg's engine view: the
 * earlier legs' fills added to size, filled and average price (a leg that
 * rests after fills elsewhere is PARTIALLY_FILLED).
 */
export function asOneOrder(o: AsterFakeOrder, leg: VenueOrder): VenueOrder {
  const prior = o.priorFilled
  if (!prior || dec(prior.base).isZero()) {
    return { ...leg, clientOrderId: o.clientOrderId }
  }
  const filled = dec(prior.base).add(leg.filledBase)
  const quote = dec(prior.quote).add(
    dec(leg.filledBase).mul(leg.averagePrice ?? 0),
  )
  const state = leg.state === 'open' ? 'partially_filled' : leg.state
  return {
    ...leg,
    clientOrderId: o.clientOrderId,
    size: decString(dec(prior.base).add(leg.size)),
    filledBase: decString(filled),
    averagePrice: decString(quote.div(filled).toDecimalPlaces(8)),
    state,
    venueStatus: style.status(state),
  }
}
