import { dec } from '@dn/core'
import type { SimFillView } from '../simExchange.js'
import {
  fixed,
  type LighterFakeOrder,
  type LighterFakeState,
} from './lighterFakeState.js'

/**
 * The venue's trades as the fake knows them: the fills of the orders it
 * placed, oldest first. The simulated venue matches every order against
 * a synthetic book, so the other side of each trade is that book, shown
 * as account 0, order 0 (as `orderBookOrders` shows its levels).
 * Liquidations, which no order of the fake's made, are not listed.
 *
 * @module
 */

interface LighterFakeTrade {
  readonly fill: SimFillView
  readonly order: LighterFakeOrder
}

/** Every trade of the fake's orders, on one market or all (null). */
export function lighterFakeTrades(
  state: LighterFakeState,
  marketId: number | null,
): LighterFakeTrade[] {
  const byEngineId = new Map<string, LighterFakeOrder>()
  for (const o of state.ordersByIndex.values()) {
    if (marketId === null || o.market.marketId === marketId) {
      byEngineId.set(o.engineId, o)
    }
  }
  const owners = new Set([...byEngineId.values()].map((o) => o.owner))
  const out: LighterFakeTrade[] = []
  for (const owner of owners) {
    for (const fill of state.exchange.fills(owner, 0)) {
      const order = byEngineId.get(fill.clientOrderId)
      if (order) out.push({ fill, order })
    }
  }
  return out.sort((a, b) => a.fill.tradeId - b.fill.tradeId)
}

/**
 * One trade as `Trade`. Not modelled, so zero: block height, the taker's
 * and maker's position before the trade, margins, integrator fees, and
 * the PnL of the book's side. `timestamp` in ms (ccxt reads it so),
 * `transaction_time` in µs [unverified: the unit].
 */
export function lighterFakeTradeJson(t: LighterFakeTrade) {
  const { fill, order } = t
  const m = order.market
  const mine = {
    id: order.orderIndex,
    client: order.clientOrderIndex,
    account: order.accountIndex,
    pnl: fill.realizedPnl,
  }
  const book = { id: 0, client: 0, account: 0, pnl: '0' }
  const ask = order.isAsk ? mine : book
  const bid = order.isAsk ? book : mine
  return {
    trade_id: fill.tradeId,
    trade_id_str: String(fill.tradeId),
    tx_hash: order.txHash ?? '',
    type: 'trade',
    market_id: m.marketId,
    size: fixed(fill.size, m.sizeDecimals),
    price: fixed(fill.price, m.priceDecimals),
    usd_amount: dec(fill.size).mul(fill.price).toFixed(6),
    ask_id: ask.id,
    ask_id_str: String(ask.id),
    bid_id: bid.id,
    bid_id_str: String(bid.id),
    ask_client_id: ask.client,
    ask_client_id_str: String(ask.client),
    bid_client_id: bid.client,
    bid_client_id_str: String(bid.client),
    ask_account_id: ask.account,
    bid_account_id: bid.account,
    // the fake's order made the trade when it rested on the book
    is_maker_ask: fill.maker === order.isAsk,
    block_height: 0,
    timestamp: fill.time,
    taker_position_size_before: '0',
    taker_entry_quote_before: '0',
    taker_initial_margin_fraction_before: 0,
    taker_position_sign_changed: false,
    maker_position_size_before: '0',
    maker_entry_quote_before: '0',
    maker_initial_margin_fraction_before: 0,
    maker_position_sign_changed: false,
    transaction_time: fill.time * 1000,
    ask_account_pnl: ask.pnl,
    bid_account_pnl: bid.pnl,
    integrator_taker_fee: 0,
    integrator_taker_fee_collector_index: 0,
    integrator_maker_fee: 0,
    integrator_maker_fee_collector_index: 0,
    taker_allocated_margin_usdc_before: 0,
    taker_allocated_margin_usdc_after: 0,
    maker_allocated_margin_usdc_before: 0,
    maker_allocated_margin_usdc_after: 0,
  }
}
