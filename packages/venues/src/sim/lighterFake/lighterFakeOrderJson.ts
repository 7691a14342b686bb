import { dec } from '@dn/core'
import {
  fixed,
  type LighterFakeOrder,
  type LighterFakeState,
} from './lighterFakeState.js'

const TIF_WORD = ['immediate-or-cancel', 'good-till-time', 'post-only']

/** The engine's status word in Lighter's (OpenAPI `Order.status`). */
function statusOf(engineStatus: string): string {
  if (engineStatus === 'expired') return 'canceled-expired'
  if (engineStatus === 'rejected') return 'canceled'
  return engineStatus
}

/** One order as Lighter's `accountOrders` lists it (amounts as strings). */
export function lighterFakeOrderJson(
  state: LighterFakeState,
  o: LighterFakeOrder,
): Record<string, unknown> {
  const m = o.market
  const size = dec(o.baseAmount).div(dec(10).pow(m.sizeDecimals))
  const view =
    o.refusal === null
      ? state.exchange.order(o.owner, o.engineId, m.symbol)
      : null
  const filled = dec(view?.filledBase ?? 0)
  const quote = view?.averagePrice ? filled.mul(view.averagePrice) : dec(0)
  return {
    order_index: o.orderIndex,
    client_order_index: o.clientOrderIndex,
    order_id: String(o.orderIndex),
    client_order_id: String(o.clientOrderIndex),
    market_index: m.marketId,
    owner_account_index: o.accountIndex,
    initial_base_amount: fixed(size.toFixed(), m.sizeDecimals),
    price: fixed(
      dec(o.price).div(dec(10).pow(m.priceDecimals)).toFixed(),
      m.priceDecimals,
    ),
    remaining_base_amount: fixed(
      dec(view?.size ?? size)
        .sub(filled)
        .toFixed(),
      m.sizeDecimals,
    ),
    filled_base_amount: fixed(filled.toFixed(), m.sizeDecimals),
    filled_quote_amount: quote.toFixed(),
    is_ask: o.isAsk,
    side: o.isAsk ? 'sell' : 'buy',
    type: 'limit',
    time_in_force: TIF_WORD[o.timeInForce] ?? 'immediate-or-cancel',
    reduce_only: o.reduceOnly,
    trigger_price: '0',
    order_expiry: o.orderExpiry,
    status: o.refusal ?? statusOf(view?.venueStatus ?? 'canceled'),
    timestamp: Math.floor(o.timestamp / 1000),
  }
}
