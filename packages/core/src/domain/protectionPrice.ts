import type { MarketRules } from '../ports/marketData.js'
import { type Decimal, type DecimalInput, dec } from '../util/decimal.js'
import type { OrderSide } from './perpOrder.js'
import { roundPrice } from './priceRules.js'

/**
 * The worst price a market order (or a task leg) may fill at: the mark
 * moved `slippageBps` against the taker, up for a buy, down for a sell.
 */
export function protectionPrice(
  mark: DecimalInput,
  side: OrderSide,
  slippageBps: number,
): Decimal {
  const bps = dec(slippageBps).div(10_000)
  return dec(mark).mul(side === 'long' ? dec(1).add(bps) : dec(1).sub(bps))
}

/**
 * The protection price on the venue's grid, rounded away from the mark so
 * the bound never tightens: up for a buy, down for a sell.
 */
export function venueProtectionPrice(
  rules: Pick<MarketRules, 'tickSize' | 'maxSigFigs'>,
  mark: DecimalInput,
  side: OrderSide,
  slippageBps: number,
): Decimal {
  return roundPrice(
    rules,
    protectionPrice(mark, side, slippageBps),
    side === 'long' ? 'up' : 'down',
  )
}
