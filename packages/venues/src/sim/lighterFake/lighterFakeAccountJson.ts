import { dec } from '@dn/core'
import { lighterFakeMarginFractions } from './lighterFakeMarketJson.js'
import { isLive } from './lighterFakeOrders.js'
import {
  fixed,
  type LighterFakeMarket,
  type LighterFakeState,
} from './lighterFakeState.js'

/**
 * An account as Lighter's account reads show it: `Account` (the rows of
 * `accountsByL1Address`) and `DetailedAccount` (`account`). Not
 * modelled, so zero or empty: pending orders (the fake executes a tx at
 * once), isolated order counts, spot assets, public pools and shares,
 * pending unlocks, names and metadata, referral and RFQ settings, the
 * account's creation time. `cancel_all_time` is the account's scheduled
 * cancel-all (ms), 0 when none.
 *
 * @module
 */

function liveOrders(state: LighterFakeState, index: number) {
  return [...state.ordersByIndex.values()].filter(
    (o) => o.accountIndex === index && isLive(state, o),
  )
}

/** `Account`: the summary `accountsByL1Address` lists. */
export function lighterFakeAccountSummary(
  state: LighterFakeState,
  index: number,
  owner: string,
) {
  const a = state.exchange.account(owner)
  const cancelAll = state.exchange
    .scheduledCancels(owner)
    .find((c) => c.market === null)
  return {
    code: 0,
    account_type: 0,
    index,
    l1_address: owner,
    cancel_all_time: cancelAll?.at ?? 0,
    total_order_count: liveOrders(state, index).length,
    total_isolated_order_count: 0,
    pending_order_count: 0,
    available_balance: a.freeMarginUsd,
    status: 1,
    collateral: a.collateralUsd,
    transaction_time: state.now() * 1000,
    account_trading_mode: 0,
  }
}

/** The account's positions as `AccountPosition` rows. */
function positionsOf(state: LighterFakeState, index: number, owner: string) {
  const live = liveOrders(state, index)
  return state.exchange.positions(owner).map((p) => {
    const m = state.markets.find(
      (x) => x.symbol === p.market,
    ) as LighterFakeMarket
    const size = dec(p.size)
    return {
      market_id: m.marketId,
      symbol: m.symbol,
      initial_margin_fraction: dec(100).div(p.leverage).toFixed(2),
      open_order_count: live.filter((o) => o.market.marketId === m.marketId)
        .length,
      pending_order_count: 0,
      position_tied_order_count: 0,
      sign: size.isNegative() ? -1 : 1,
      position: fixed(size.abs().toFixed(), m.sizeDecimals),
      avg_entry_price: fixed(p.entryPrice, m.priceDecimals),
      position_value: size.abs().mul(p.markPrice).toFixed(6),
      unrealized_pnl: size.mul(dec(p.markPrice).sub(p.entryPrice)).toFixed(6),
      realized_pnl: '0.000000',
      liquidation_price: p.liquidationPrice ?? '0',
      margin_mode: p.marginMode === 'isolated' ? 1 : 0,
      margin_set_flag: 0,
      allocated_margin: '0.000000',
      total_discount: '0',
    }
  })
}

/** The margin cross positions need, initial and maintenance (6 dp). */
function crossMargins(state: LighterFakeState, owner: string) {
  let initial = dec(0)
  let maintenance = dec(0)
  for (const p of state.exchange.positions(owner)) {
    if (p.marginMode !== 'cross') continue
    const m = state.markets.find((x) => x.symbol === p.market)
    const notional = dec(p.size).abs().mul(p.markPrice)
    initial = initial.add(notional.div(p.leverage))
    if (m) {
      const mmf = lighterFakeMarginFractions(m).maintenance_margin_fraction
      maintenance = maintenance.add(notional.mul(mmf).div(10_000))
    }
  }
  return { initial: initial.toFixed(6), maintenance: maintenance.toFixed(6) }
}

/** `DetailedAccount`: what `account?by=…` answers. */
export function lighterFakeDetailedAccount(
  state: LighterFakeState,
  index: number,
  owner: string,
) {
  const a = state.exchange.account(owner)
  const margins = crossMargins(state, owner)
  const approved = [...(state.integrators.get(index)?.values() ?? [])]
  return {
    ...lighterFakeAccountSummary(state, index, owner),
    account_index: index,
    name: '',
    description: '',
    can_invite: false,
    referral_points_percentage: '',
    can_rfq: false,
    can_rfq_market_ids: [],
    created_at: 0,
    metadata: { color: '' },
    positions: positionsOf(state, index, owner),
    assets: [],
    total_asset_value: a.crossEquityUsd,
    cross_asset_value: a.crossEquityUsd,
    // the initial margin cross positions hold (six decimals, as Lighter)
    cross_initial_margin_requirement: margins.initial,
    cross_maintenance_margin_requirement: margins.maintenance,
    pool_info: {
      status: 0,
      operator_fee: '0',
      min_operator_share_rate: '0',
      total_shares: 0,
      operator_shares: 0,
      annual_percentage_yield: 0,
      sharpe_ratio: 0,
      daily_returns: [],
      share_prices: [],
      strategies: [],
    },
    shares: [],
    pending_unlocks: [],
    approved_integrators: approved.map((i) => ({ ...i, name: '' })),
  }
}
