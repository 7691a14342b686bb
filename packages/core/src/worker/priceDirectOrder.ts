import type { PerpOrderRecord } from '../domain/perpOrder.js'
import { planOrder } from '../domain/planOrder.js'
import { ConflictError } from '../errors/domain.js'
import type { VenueAdapter } from '../ports/venueAdapter.js'
import { decString } from '../util/decimal.js'

/**
 * What a direct order is sent at, from fresh rules and quote
 * (`planOrder`): the size rounded down to the step, the price on the venue
 * grid (a market order's protection price rounded away from the trader's
 * favour: up for buys, down for sells), within the key cap at the mark.
 * @throws {ConflictError} `order_rejected` when it cannot be sent
 * @throws {VenueUnavailableError} when the venue cannot be read
 */
export async function priceDirectOrder(
  adapter: VenueAdapter,
  order: PerpOrderRecord,
  maxSizeUsd: string,
): Promise<{ size: string; price: string }> {
  const rules = await adapter.rules(order.market)
  if (!rules) throw rejected(`${order.venue} no longer lists ${order.market}`)
  // part of sending the order: its read goes at the order's priority
  const quote = await adapter.quote(order.market, { priority: 'order' })
  const plan = planOrder(
    rules,
    quote,
    {
      sizeBase: order.sizeBase,
      side: order.side,
      limitPrice: order.requestedLimitPrice,
      slippageBps: order.slippageBps,
    },
    maxSizeUsd,
  )
  if (plan.problem === 'size_zero')
    throw rejected('size rounds down to zero at the venue step')
  if (plan.problem === 'exceeds_cap') {
    throw rejected(
      `risk USD ${decString(plan.riskUsd.toDecimalPlaces(2))} at the fresh mark exceeds the key's maxSizeUsd ${maxSizeUsd}`,
    )
  }
  return { size: decString(plan.size), price: decString(plan.price) }
}

function rejected(message: string): ConflictError {
  return new ConflictError('order_rejected', message)
}
