import { randomUUID } from 'node:crypto'
import type { ApiKeyRecord } from '../domain/apiKey.js'
import { orderMinimumUsd } from '../domain/orderMinimum.js'
import type {
  OrderSide,
  OrderType,
  PerpOrderRecord,
  TimeInForce,
} from '../domain/perpOrder.js'
import { planOrder } from '../domain/planOrder.js'
import { isValidPrice } from '../domain/priceRules.js'
import type { VenueId } from '../domain/venue.js'
import { RuleViolationError } from '../errors/domain.js'
import type { Repos } from '../ports/store.js'
import { decString } from '../util/decimal.js'
import { msToIso } from '../util/time.js'
import { requireBoundVenues, requireVenueGrant } from './accessChecks.js'
import type { CommandDeps } from './commandDeps.js'
import { listedMarket } from './marketChecks.js'

export interface CreatePerpOrderParameters {
  readonly venue: VenueId
  readonly market: string
  readonly side: OrderSide
  readonly orderType: OrderType
  readonly sizeBase: number
  readonly limitPrice?: number | undefined
  readonly timeInForce?: TimeInForce | undefined
  readonly slippageBps?: number | undefined
  readonly reduceOnly?: boolean | undefined
  readonly expirySeconds?: number | undefined
}

export interface PreparedPerpOrder {
  readonly params: CreatePerpOrderParameters
  readonly timeInForce: TimeInForce
  readonly slippageBps: number
  readonly expirySeconds: number
}

/**
 * Checks that need market data, before the transaction: grant, listed
 * symbol, tick, size after rounding down to the venue step, the opening
 * minimums (USD 10 and the venue's), and the key's USD cap on the risk at
 * the larger of mark and the limit (or market protection) price.
 */
export async function preparePerpOrder(
  deps: Pick<CommandDeps, 'markets'>,
  key: ApiKeyRecord,
  params: CreatePerpOrderParameters,
): Promise<PreparedPerpOrder> {
  requireVenueGrant(key, [params.venue])
  const { rules, quote } = await listedMarket(
    deps.markets,
    params.venue,
    params.market,
  )
  const isMarket = params.orderType === 'market'
  const timeInForce = params.timeInForce ?? (isMarket ? 'ioc' : 'gtc')
  const slippageBps = isMarket ? (params.slippageBps ?? 100) : 0
  if (
    params.limitPrice !== undefined &&
    !isValidPrice(rules, params.limitPrice)
  ) {
    throw new RuleViolationError(
      'invalid_tick',
      `limitPrice ${decString(params.limitPrice)} is not on the ${params.venue} price grid for ${params.market} (tick ${rules.tickSize}${rules.maxSigFigs ? `, at most ${rules.maxSigFigs} significant figures unless an integer` : ''})`,
    )
  }
  const plan = planOrder(
    rules,
    quote,
    {
      sizeBase: params.sizeBase,
      side: params.side,
      limitPrice: params.limitPrice ?? null,
      slippageBps,
      onGrid: false,
    },
    key.maxSizeUsd,
  )
  const size = plan.size
  if (size.isZero() || (!params.reduceOnly && size.lt(rules.minBase))) {
    throw new RuleViolationError(
      'below_venue_minimum',
      `sizeBase ${decString(params.sizeBase)} rounds down to ${decString(size)} (step ${rules.sizeStep}); the ${params.venue} minimum is ${rules.minBase}`,
    )
  }
  if (!params.reduceOnly) {
    const notional = size.mul(params.limitPrice ?? quote.mark)
    const minUsd = orderMinimumUsd(rules)
    if (notional.lt(minUsd)) {
      throw new RuleViolationError(
        'below_venue_minimum',
        `order notional USD ${decString(notional.toDecimalPlaces(2))} is below the opening minimum of USD ${minUsd} on ${params.venue}`,
      )
    }
  }
  if (plan.problem === 'exceeds_cap') {
    throw new RuleViolationError(
      'size_exceeds_key_limit',
      `order risk USD ${decString(plan.riskUsd.toDecimalPlaces(2))} exceeds this key's maxSizeUsd ${key.maxSizeUsd}`,
    )
  }
  return {
    params,
    timeInForce,
    slippageBps,
    expirySeconds: params.expirySeconds ?? (timeInForce === 'ioc' ? 60 : 3600),
  }
}

/**
 * The client order id is a deterministic function of the order id (0x +
 * 32 hex, a valid Hyperliquid cloid and Aster clientOrderId), so a retried
 * submission finds the venue order instead of doubling it.
 */
export function clientOrderIdFor(orderId: string): string {
  return `0x${orderId.replaceAll('-', '')}`
}

/** Inserts the pending order once the owner's venue is bound. */
export async function createPerpOrder(
  tx: Repos,
  deps: Pick<CommandDeps, 'clock'>,
  key: ApiKeyRecord,
  prepared: PreparedPerpOrder,
): Promise<PerpOrderRecord> {
  const p = prepared.params
  await requireBoundVenues(tx, key.owner, [p.venue])
  const nowMs = deps.clock.now()
  const now = msToIso(nowMs)
  const id = randomUUID()
  const order: PerpOrderRecord = {
    id,
    owner: key.owner,
    apiKeyId: key.id,
    venue: p.venue,
    market: p.market,
    side: p.side,
    orderType: p.orderType,
    sizeBase: decString(p.sizeBase),
    requestedLimitPrice:
      p.limitPrice === undefined ? null : decString(p.limitPrice),
    limitPrice: null,
    timeInForce: prepared.timeInForce,
    slippageBps: prepared.slippageBps,
    reduceOnly: p.reduceOnly ?? false,
    status: 'pending',
    requestedBase: null,
    filledBase: '0',
    averagePrice: null,
    clientOrderId: clientOrderIdFor(id),
    venueOrderId: null,
    venueStatus: null,
    error: null,
    cancelRequestedAt: null,
    submittedAt: null,
    sendBy: null,
    observedAt: null,
    expiresAt: msToIso(nowMs + prepared.expirySeconds * 1000),
    createdAt: now,
    updatedAt: now,
    resolution: null,
    leaseOwner: null,
    leaseExpiresAt: null,
    fence: 0,
    nextCheckAt: null,
  }
  await tx.orders.insert(order)
  return order
}
