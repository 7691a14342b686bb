import type { MarketQuote, MarketRules } from '../ports/marketData.js'
import {
  type Decimal,
  type DecimalInput,
  dec,
  floorToStep,
} from '../util/decimal.js'
import type { OrderSide } from './perpOrder.js'
import { protectionPrice, venueProtectionPrice } from './protectionPrice.js'

export interface OrderPlanRequest {
  /** base size asked for, before the venue step */
  readonly sizeBase: DecimalInput
  readonly side: OrderSide
  /**
   * The order's price; null for a market order, priced at the protection
   * price `slippageBps` off the mark. Task legs pass the mark: their USD
   * size is set, and capped, at the mark.
   */
  readonly limitPrice: DecimalInput | null
  readonly slippageBps: number
  /**
   * Whether the protection price is put on the venue grid (rounded away
   * from the mark) @default true. The API's own check before the worker
   * prices the order uses the exact protection price.
   */
  readonly onGrid?: boolean | undefined
}

/** What is wrong with a planned order, first problem first. */
export type OrderPlanProblem = 'size_zero' | 'exceeds_cap'

export interface OrderPlan {
  /** the size rounded down to the venue step */
  readonly size: Decimal
  /** the limit price, or the protection price */
  readonly price: Decimal
  /** USD at risk: size at the larger of mark and price */
  readonly riskUsd: Decimal
  readonly problem: OrderPlanProblem | null
}

/**
 * The one sizing rule of every order the service sends or accepts: the
 * size floored to the venue size step (zero is a problem), the price (the
 * limit, or the protection price off the mark), and the USD at risk at the
 * larger of mark and price checked against the key's cap. Problems are
 * data: each caller words its own error.
 */
export function planOrder(
  rules: Pick<MarketRules, 'sizeStep' | 'tickSize' | 'maxSigFigs'>,
  quote: Pick<MarketQuote, 'mark'>,
  request: OrderPlanRequest,
  maxSizeUsd: DecimalInput,
): OrderPlan {
  const size = floorToStep(request.sizeBase, rules.sizeStep)
  const mark = dec(quote.mark)
  const price =
    request.limitPrice !== null
      ? dec(request.limitPrice)
      : request.onGrid === false
        ? protectionPrice(mark, request.side, request.slippageBps)
        : venueProtectionPrice(rules, mark, request.side, request.slippageBps)
  const riskUsd = size.mul(price.gt(mark) ? price : mark)
  const problem = size.isZero()
    ? 'size_zero'
    : riskUsd.gt(maxSizeUsd)
      ? 'exceeds_cap'
      : null
  return { size, price, riskUsd, problem }
}
