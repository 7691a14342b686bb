import { VenueRejectedError } from '@dn/core'
import { cancelOrder } from '../signer/cancelOrder.js'
import type { LighterAdapterContext } from './lighterAdapterContext.js'
import type { LighterSigningKey } from './lighterCredential.js'
import { isFinalOrder } from './lighterOrderView.js'
import { sendLighterTx } from './sendLighterTx.js'

/**
 * Cancels by the service's client order id. Lighter's CancelOrder takes
 * the exchange order index, so the order is looked up first; an order
 * Lighter does not know, or one already final, needs nothing and the
 * call resolves. A refused cancel is re-checked: if the order has become
 * final meanwhile (filled, expired), that is success too.
 *
 * @throws {VenueRejectedError} refused while the order is still live.
 * @throws {UncertainSubmissionError} the cancel may have been accepted.
 * @throws {VenueUnavailableError} nothing was sent.
 */
export async function cancelLighterOrder(
  ctx: LighterAdapterContext,
  key: LighterSigningKey,
  market: string,
  clientOrderId: string,
): Promise<void> {
  const m = await ctx.market(market)
  const found = await ctx.findOrder(key, m, clientOrderId)
  if (!found || isFinalOrder(found)) return
  const index = Number(found.venueOrderId)
  if (!Number.isSafeInteger(index) || index <= 0) {
    throw new VenueRejectedError(
      `lighter order ${clientOrderId} has no order index yet`,
    )
  }
  try {
    await sendLighterTx(ctx, key, (nonce, expiredAt) =>
      cancelOrder({
        chainId: ctx.chainId,
        nonce,
        expiredAt,
        accountIndex: key.accountIndex,
        apiKeyIndex: key.apiKeyIndex,
        privateKey: key.privateKey,
        marketIndex: m.marketId,
        index,
      }),
    )
  } catch (err) {
    if (err instanceof VenueRejectedError) {
      const now = await ctx.findOrder(key, m, clientOrderId)
      if (!now || isFinalOrder(now)) return
    }
    throw err
  }
}
