/**
 * The simulator's margin model, in one place.
 *
 * - Collateral C is cash: faucet deposits + realized PnL + funding.
 * - Initial margin of a position or resting order: |size| x price / leverage.
 * - Maintenance margin: |size| x mark x mmr, mmr = 1 / (2 x maxLeverage)
 *   (Hyperliquid's rule: half the initial margin at maximum leverage).
 * - An isolated position reserves margin M out of C as it grows (fill
 *   notional / leverage) and releases it pro rata as it shrinks.
 * - Cross equity = C - sum of isolated M + sum of cross unrealized PnL.
 * - Free margin = cross equity - cross initial margin (at the mark) -
 *   initial margin of resting orders; an increasing order needs
 *   free margin >= its own initial margin at its limit price.
 * - An isolated position is liquidated when M + uPnL <= its maintenance
 *   margin. Cross positions share one pool: liquidated together when cross
 *   equity <= the sum of their maintenance margins.
 * - Liquidation price: that equality solved for the position's own mark,
 *   other marks held: P = (q x E - B) / (q - |q| x mmr), with q the signed
 *   size, E the entry, B = M (isolated) or, for cross, cross equity without
 *   this position's uPnL minus the other cross positions' maintenance.
 *   Reported on the price grid (rounded toward the mark) and null when
 *   P <= 0 (a long that cannot be liquidated). The engine liquidates when
 *   the mark reaches the reported price.
 */
import { type Decimal, dec, roundPrice } from '@dn/core'
import type { SimMarket } from './simMarkets.js'
import {
  markOf,
  type SimAccount,
  type SimPosition,
  type SimState,
  settingsOf,
} from './simState.js'

/** Maintenance margin per unit of notional: 1 / (2 x maxLeverage). */
function maintenanceRate(market: SimMarket): Decimal {
  return dec(1).div(2 * market.maxLeverage)
}

/** Signed size x (mark - entry). */
export function unrealizedPnl(position: SimPosition, mark: Decimal): Decimal {
  return position.size.mul(mark.sub(position.entry))
}

function isCross(account: SimAccount, state: SimState, symbol: string) {
  const m = state.markets.get(symbol)
  return m ? settingsOf(account, m.market).marginMode === 'cross' : true
}

/** C - isolated margin + cross unrealized PnL. */
export function crossEquity(state: SimState, account: SimAccount): Decimal {
  let equity = account.collateral
  for (const [symbol, p] of account.positions) {
    equity = isCross(account, state, symbol)
      ? equity.add(unrealizedPnl(p, markOf(state, symbol)))
      : equity.sub(p.isolatedMargin)
  }
  return equity
}

/** Margin left for new exposure: cross equity minus what is in use. */
export function freeMargin(state: SimState, account: SimAccount): Decimal {
  let free = crossEquity(state, account)
  for (const [symbol, p] of account.positions) {
    const m = state.markets.get(symbol)
    if (!m || !isCross(account, state, symbol)) continue
    const lev = settingsOf(account, m.market).leverage
    free = free.sub(p.size.abs().mul(m.walk.mark).div(lev))
  }
  for (const order of state.resting) {
    const m = state.markets.get(order.market)
    if (order.owner !== account.owner || order.reduceOnly || !m) continue
    const lev = settingsOf(account, m.market).leverage
    free = free.sub(order.size.sub(order.filled).mul(order.price).div(lev))
  }
  return free
}

/** The position's liquidation price on the grid, or null. */
export function liquidationPrice(
  state: SimState,
  account: SimAccount,
  symbol: string,
): Decimal | null {
  const m = state.markets.get(symbol)
  const p = account.positions.get(symbol)
  if (!m || !p || p.size.isZero()) return null
  const mmr = maintenanceRate(m.market)
  let base = p.isolatedMargin
  if (isCross(account, state, symbol)) {
    base = crossEquity(state, account).sub(unrealizedPnl(p, m.walk.mark))
    for (const [other, q] of account.positions) {
      if (other === symbol || !isCross(account, state, other)) continue
      const om = state.markets.get(other)
      if (!om) continue
      base = base.sub(
        q.size.abs().mul(om.walk.mark).mul(maintenanceRate(om.market)),
      )
    }
  }
  const q = p.size
  const price = q
    .mul(p.entry)
    .sub(base)
    .div(q.sub(q.abs().mul(mmr)))
  if (price.lte(0)) return null
  return roundPrice(m.market, price, q.gt(0) ? 'up' : 'down')
}
