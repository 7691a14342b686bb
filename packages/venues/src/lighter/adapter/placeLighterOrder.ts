import {
  UncertainSubmissionError,
  type VenueOrder,
  type VenueOrderRequest,
  VenueRejectedError,
} from '@dn/core'
import {
  createOrder,
  LIGHTER_ORDER_TYPE,
  LIGHTER_TIME_IN_FORCE,
} from '../signer/createOrder.js'
import type { LighterAdapterContext } from './lighterAdapterContext.js'
import { lighterClientOrderIndex } from './lighterClientOrderIndex.js'
import type { LighterSigningKey } from './lighterCredential.js'
import type { LighterMarket } from './lighterMarkets.js'
import { isFinalOrder } from './lighterOrderView.js'
import { LIGHTER_CODES, LighterRejectedError } from './lighterRejectedError.js'
import { scaleToInteger } from './lighterWireValue.js'
import { sendLighterTx } from './sendLighterTx.js'

/** Resting orders live 28 days, the official python SDK's default. */
const RESTING_ORDER_TTL_MS = 28 * 86_400_000

const TIF: Record<VenueOrderRequest['timeInForce'], number> = {
  ioc: LIGHTER_TIME_IN_FORCE.ioc,
  gtc: LIGHTER_TIME_IN_FORCE.goodTillTime,
  post_only: LIGHTER_TIME_IN_FORCE.postOnly,
}

/**
 * Places one order as a Lighter limit CreateOrder: IOC (what a market
 * order is, at the worker's protection price) with expiry 0, GTC as
 * good-till-time and post-only, both with an expiry 28 days out.
 *
 * Lighter executes txs asynchronously, so after `sendTx` is accepted the
 * order is looked up by its client order index until it shows (a pending
 * `open` view is returned if it does not within `confirmAttempts`). A
 * resend that hits 21728 (index exists) is the earlier send that went
 * through: that order is returned, never a second one. A create the
 * sequencer refused shows as a refusal status and is thrown as
 * VenueRejectedError.
 *
 * @throws {VenueRejectedError} refused, or not on the market's grid.
 * @throws {UncertainSubmissionError} the send may have been accepted.
 * @throws {VenueUnavailableError} nothing was sent.
 */
export async function placeLighterOrder(
  ctx: LighterAdapterContext,
  key: LighterSigningKey,
  order: VenueOrderRequest,
): Promise<VenueOrder> {
  const m = await ctx.market(order.market)
  const baseAmount = scaleToInteger(order.size, m.sizeDecimals)
  const price = scaleToInteger(order.price, m.priceDecimals)
  if (baseAmount === null || baseAmount <= 0) {
    throw new VenueRejectedError(
      `size ${order.size} is not a multiple of the ${m.symbol} size step`,
    )
  }
  if (price === null || price <= 0) {
    throw new VenueRejectedError(
      `price ${order.price} is not on the ${m.symbol} tick`,
    )
  }
  let clientOrderIndex: number
  try {
    clientOrderIndex = lighterClientOrderIndex(order.clientOrderId)
  } catch (err) {
    throw new VenueRejectedError(String((err as Error).message), { cause: err })
  }
  const tif = TIF[order.timeInForce]
  const integrator = ctx.integratorAccountIndex
  try {
    await sendLighterTx(
      ctx,
      key,
      (nonce, expiredAt) =>
        createOrder({
          chainId: ctx.chainId,
          nonce,
          expiredAt,
          accountIndex: key.accountIndex,
          apiKeyIndex: key.apiKeyIndex,
          privateKey: key.privateKey,
          marketIndex: m.marketId,
          clientOrderIndex,
          baseAmount,
          price,
          isAsk: order.side === 'short',
          type: LIGHTER_ORDER_TYPE.limit,
          timeInForce: tif,
          reduceOnly: order.reduceOnly,
          orderExpiry:
            tif === LIGHTER_TIME_IN_FORCE.ioc
              ? 0
              : ctx.clock.now() + RESTING_ORDER_TTL_MS,
          attributes:
            integrator === null
              ? undefined
              : { integratorAccountIndex: integrator },
        }),
      order.validUntil,
    )
  } catch (err) {
    if (
      err instanceof LighterRejectedError &&
      err.lighterCode === LIGHTER_CODES.clientOrderIndexExists
    ) {
      // the order exists: found, it is the answer; not found yet (or the
      // lookup failed), its state is unknown, never "refused"
      const existing = await ctx
        .findOrder(key, m, order.clientOrderId)
        .catch(() => null)
      if (existing) return accepted(existing)
      throw new UncertainSubmissionError(
        `lighter: ${order.clientOrderId} already exists at the venue; its state could not be read yet`,
        { cause: err },
      )
    }
    throw err
  }
  let seen: VenueOrder
  try {
    seen = await confirm(ctx, key, m, order)
  } catch (err) {
    // the tx was accepted: a lookup that fails now (outage, budget) must
    // not read as "nothing sent", or the order would be sent again
    throw new UncertainSubmissionError(
      `lighter: ${order.clientOrderId} was accepted; looking it up failed: ${err instanceof Error ? err.message : String(err)}`,
      { cause: err },
    )
  }
  return accepted(seen)
}

/**
 * Polls the order until it is visible, at doubling intervals: a standard
 * account has 60 requests a minute, so each lookup counts; a pending view
 * if it never shows.
 */
async function confirm(
  ctx: LighterAdapterContext,
  key: LighterSigningKey,
  m: LighterMarket,
  order: VenueOrderRequest,
): Promise<VenueOrder> {
  for (let i = 0; i < ctx.confirmAttempts; i++) {
    const found = await ctx.findOrder(key, m, order.clientOrderId)
    if (found && (isFinalOrder(found) || order.timeInForce !== 'ioc')) {
      return found
    }
    await new Promise((r) => setTimeout(r, ctx.confirmDelayMs * 2 ** i))
  }
  return {
    clientOrderId: order.clientOrderId,
    venueOrderId: null,
    state: 'open',
    size: order.size,
    filledBase: '0',
    averagePrice: null,
    venueStatus: 'pending',
    reason: null,
  }
}

function accepted(order: VenueOrder): VenueOrder {
  if (order.state === 'rejected') {
    throw new VenueRejectedError(order.reason ?? order.venueStatus)
  }
  return order
}
