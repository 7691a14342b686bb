import { type Decimal, dec, decString, msToIso } from '@dn/core'
import { usd } from './fillOrder.js'
import { liquidationPrice, unrealizedPnl } from './liquidationPrice.js'
import { setOrderState } from './simOrder.js'
import { type SimAccount, type SimState, settingsOf } from './simState.js'

/**
 * Closes every position whose mark reached its liquidation price (see the
 * margin model in liquidationPrice.ts), at the mark. An isolated position
 * loses at most its margin; a cross breach closes all cross positions and
 * the account loses at most its cross equity. Each close is recorded as a
 * SimLiquidation, and the owner's orders on that market are cancelled.
 */
export function liquidateAccounts(state: SimState, at: number): void {
  for (const account of state.accounts.values()) {
    if (account.positions.size === 0) continue
    let crossBreached = false
    for (const [symbol, p] of [...account.positions]) {
      const m = state.markets.get(symbol)
      const liq = liquidationPrice(state, account, symbol)
      if (!m || liq === null) continue
      const mark = m.walk.mark
      if (p.size.isPositive() ? mark.gt(liq) : mark.lt(liq)) continue
      if (settingsOf(account, m.market).marginMode === 'isolated') {
        const pnl = usd(unrealizedPnl(p, mark))
        const floor = p.isolatedMargin.neg()
        close(state, account, symbol, pnl.lt(floor) ? floor : pnl, at)
      } else {
        crossBreached = true
      }
    }
    if (crossBreached) liquidateCross(state, account, at)
  }
}

function liquidateCross(state: SimState, account: SimAccount, at: number) {
  let reserved = dec(0)
  for (const [symbol, p] of [...account.positions]) {
    const m = state.markets.get(symbol)
    if (!m) continue
    if (settingsOf(account, m.market).marginMode === 'isolated') {
      reserved = reserved.add(p.isolatedMargin)
      continue
    }
    close(state, account, symbol, usd(unrealizedPnl(p, m.walk.mark)), at)
  }
  // bad debt beyond the cross pool is the venue's, not the isolated margin's
  if (account.collateral.lt(reserved)) account.collateral = reserved
}

function close(
  state: SimState,
  account: SimAccount,
  symbol: string,
  pnl: Decimal,
  at: number,
) {
  const p = account.positions.get(symbol)
  const m = state.markets.get(symbol)
  if (!p || !m) return
  account.collateral = account.collateral.add(pnl)
  account.positions.delete(symbol)
  account.liquidations.push({
    market: symbol,
    time: msToIso(at),
    size: decString(p.size),
    price: decString(m.walk.mark),
    marginMode: settingsOf(account, m.market).marginMode,
    pnlUsd: decString(pnl),
  })
  for (const order of [...state.resting]) {
    if (order.owner !== account.owner || order.market !== symbol) continue
    setOrderState(state.style, order, 'cancelled', 'liquidation', 'liquidated')
    state.resting.delete(order)
  }
}
