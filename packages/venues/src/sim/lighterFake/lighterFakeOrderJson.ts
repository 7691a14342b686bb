import { dec } from '@dn/core'
import {
  fixed,
  type LighterFakeOrder,
  type LighterFakeState,
} from './lighterFakeState.js'
import { isWaiting } from './lighterFakeTriggers.js'

const TIF_WORD = ['immediate-or-cancel', 'good-till-time', 'post-only']
const TYPE_WORD = [
  'limit',
  'market',
  'stop-loss',
  'stop-loss-limit',
  'take-profit',
  'take-profit-limit',
]

/** The engine's status word in Lighter's (OpenAPI `Order.status`). */
function statusOf(engineStatus: string): string {
  if (engineStatus === 'expired') return 'canceled-expired'
  if (engineStatus === 'rejected') return 'canceled'
  return engineStatus
}

/**
 * One order as Lighter's order reads list it (`Order`: amounts as
 * strings, `base_size` / `base_price` as the signed integers). A
 * stop-loss / take-profit shows its `trigger_price`; while it waits for
 * the mark it is `pending` with `trigger_status` `mark-price`, once fired
 * its status is the engine's, `trigger_status` `na` [unverified: the
 * venue's word after firing] and `trigger_time` the firing time (s, as the
 * spec's example). Not modelled, so zero or `na`: parent / OCO links,
 * integrator fees, order flags, block height. Times: `timestamp`, `created_at`,
 * `updated_at` in seconds (ccxt reads `timestamp` with `safeTimestamp`),
 * `updated_at` the last fill's, `transaction_time` in microseconds
 * [unverified: the unit].
 */
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
  const fills = state.exchange
    .fills(o.owner, o.timestamp)
    .filter((f) => f.clientOrderId === o.engineId)
  const updated = fills.at(-1)?.time ?? o.timestamp
  const s = (ms: number) => Math.floor(ms / 1000)
  const waiting = isWaiting(o)
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
    nonce: o.nonce ?? 0,
    remaining_base_amount: fixed(
      dec(view?.size ?? size)
        .sub(filled)
        .toFixed(),
      m.sizeDecimals,
    ),
    is_ask: o.isAsk,
    base_size: o.baseAmount,
    base_price: o.price,
    filled_base_amount: fixed(filled.toFixed(), m.sizeDecimals),
    filled_quote_amount: quote.toFixed(),
    side: o.isAsk ? 'sell' : 'buy',
    type: TYPE_WORD[o.type ?? 0] ?? 'limit',
    time_in_force: TIF_WORD[o.timeInForce] ?? 'immediate-or-cancel',
    reduce_only: o.reduceOnly,
    trigger_price: o.trigger
      ? fixed(
          dec(o.trigger.price).div(dec(10).pow(m.priceDecimals)).toFixed(),
          m.priceDecimals,
        )
      : '0',
    order_expiry: o.orderExpiry,
    status: waiting
      ? 'pending'
      : (o.refusal ?? statusOf(view?.venueStatus ?? 'canceled')),
    trigger_status: waiting ? 'mark-price' : 'na',
    trigger_time: s(o.trigger?.firedAt ?? 0),
    parent_order_index: 0,
    parent_order_id: '0',
    to_trigger_order_id_0: '0',
    to_trigger_order_id_1: '0',
    to_cancel_order_id_0: '0',
    integrator_fee_collector_index: '0',
    integrator_taker_fee: '0',
    integrator_maker_fee: '0',
    order_flags: 0,
    block_height: 0,
    timestamp: s(o.timestamp),
    created_at: s(o.timestamp),
    updated_at: s(updated),
    transaction_time: o.timestamp * 1000,
  }
}
