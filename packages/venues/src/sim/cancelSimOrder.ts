import { type VenueOrder, VenueRejectedError } from '@dn/core'
import { advanceSim } from './advanceSim.js'
import { isLive, orderView, setOrderState } from './simOrder.js'
import { accountOf, type SimState } from './simState.js'

/**
 * Cancels the owner's order by client order id. Idempotent: a final order
 * is returned as it is. An id the owner never placed is refused the way
 * the venue refuses it.
 */
export function cancelSimOrder(
  state: SimState,
  owner: string,
  clientOrderId: string,
  market?: string,
): VenueOrder {
  advanceSim(state)
  const account = accountOf(state, owner)
  const order = state.orders.get(clientOrderId)
  if (
    order?.owner !== account.owner ||
    (market !== undefined && order.market !== market)
  ) {
    throw new VenueRejectedError(state.style.reasons.notFound)
  }
  if (isLive(order)) {
    setOrderState(state.style, order, 'cancelled', 'user', 'cancelled by user')
    state.resting.delete(order)
  }
  return orderView(order)
}
