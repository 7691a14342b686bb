import { type Decimal, dec } from '@dn/core'
import type { SimOrder } from './simOrder.js'
import {
  accountOf,
  type SimAccount,
  type SimMarketState,
  type SimState,
  settingsOf,
} from './simState.js'

/**
 * Executes `qty` of an order at `price`: the order's filled size and
 * average, the venue's fee out of the owner's collateral (taker rate when
 * the order crossed the book, maker when it rested) and the builder fee
 * the order names, if any, then the owner's net position (see
 * `applyToPosition`).
 */
export function fillOrder(
  state: SimState,
  order: SimOrder,
  qty: Decimal,
  price: Decimal,
  liquidity: 'taker' | 'maker',
): void {
  const m = state.markets.get(order.market)
  if (!m || qty.lte(0)) return
  const notional = qty.mul(price)
  const fee = usd(notional.mul(state.style.fees[liquidity]))
  const builderFee =
    order.builderFeeRate === undefined
      ? undefined
      : usd(notional.mul(order.builderFeeRate))
  order.filled = order.filled.add(qty)
  order.filledNotional = order.filledNotional.add(notional)
  const account = accountOf(state, order.owner)
  account.collateral = account.collateral.sub(fee).sub(builderFee ?? 0)
  const signed = order.side === 'long' ? qty : qty.neg()
  const realizedPnl = applyToPosition(account, m, signed, price)
  order.fills.push({
    qty,
    price,
    time: state.clock.now(),
    tradeId: state.nextTradeId++,
    fee,
    maker: liquidity === 'maker',
    realizedPnl,
    ...(builderFee === undefined ? {} : { builderFee }),
  })
}

/**
 * Nets a signed fill into the position. Growing: the entry becomes the
 * size-weighted average and an isolated position reserves fill notional /
 * leverage. Shrinking: PnL on the closed part goes to collateral at the
 * old entry, and isolated margin is released pro rata. Flipping: both, and
 * the remainder opens at the fill price.
 * @returns the realized PnL
 */
function applyToPosition(
  account: SimAccount,
  m: SimMarketState,
  signed: Decimal,
  price: Decimal,
): Decimal {
  const symbol = m.market.symbol
  const { leverage, marginMode } = settingsOf(account, m.market)
  const isolated = marginMode === 'isolated'
  const p = account.positions.get(symbol) ?? {
    size: dec(0),
    entry: dec(0),
    isolatedMargin: dec(0),
  }
  const qty = signed.abs()
  // money moves in micro-dollars, as USDC settles; the entry keeps full
  // precision so a long run of fills does not drift
  const reserve = (base: Decimal) =>
    isolated ? usd(base.mul(price).div(leverage)) : dec(0)
  if (p.size.isZero() || p.size.isPositive() === signed.isPositive()) {
    const size = p.size.add(signed)
    p.entry = p.size.abs().mul(p.entry).add(qty.mul(price)).div(size.abs())
    p.size = size
    p.isolatedMargin = p.isolatedMargin.add(reserve(qty))
    account.positions.set(symbol, p)
    return dec(0)
  }
  const held = p.size.abs()
  const closed = qty.lt(held) ? qty : held
  const realized = usd(
    closed.mul(price.sub(p.entry)).mul(p.size.isPositive() ? 1 : -1),
  )
  account.collateral = account.collateral.add(realized)
  p.isolatedMargin = p.isolatedMargin.sub(
    usd(p.isolatedMargin.mul(closed).div(held)),
  )
  p.size = p.size.add(signed)
  if (p.size.isZero()) {
    account.positions.delete(symbol)
  } else if (qty.gt(held)) {
    p.entry = price
    p.isolatedMargin = reserve(qty.sub(held))
  }
  return realized
}

/** How much an order on `side` can reduce the owner's position. */
export function reducibleSize(
  account: SimAccount,
  symbol: string,
  side: 'long' | 'short',
): Decimal {
  const size = account.positions.get(symbol)?.size ?? dec(0)
  if (side === 'long') return size.isNegative() ? size.abs() : dec(0)
  return size.isPositive() ? size : dec(0)
}

/** Rounds a USD amount to micro-dollars. @internal */
export function usd(amount: Decimal): Decimal {
  return amount.toDecimalPlaces(6)
}
