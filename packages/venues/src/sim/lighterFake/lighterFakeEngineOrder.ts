import { dec, type TimeInForce, VenueRejectedError } from '@dn/core'
import { venueStyle } from '../venueStyle.js'
import type { LighterFakeOrder, LighterFakeState } from './lighterFakeState.js'

const TIF: readonly TimeInForce[] = ['ioc', 'gtc', 'post_only']
const reasons = venueStyle('lighter').reasons

/** The status the sequencer gives an order the engine refused. */
function refusalStatus(reason: string): string {
  if (reason === reasons.margin) return 'canceled-margin-not-allowed'
  if (reason === reasons.postOnly('', '')) return 'canceled-post-only'
  if (reason === reasons.reduceOnly) return 'canceled-reduce-only'
  return 'canceled'
}

/**
 * Hands a Lighter order to the engine under its engine id: at its price
 * (a market order's worst price) with its time in force, so a market or
 * stop-loss / take-profit market order is IOC. Used when a CreateOrder is
 * accepted and when a waiting trigger order fires.
 *
 * @returns null when the engine took it, else the `canceled-...` status
 *   the sequencer records for its refusal (margin, post-only crossing,
 *   reduce-only).
 */
export function placeOnEngine(
  state: LighterFakeState,
  o: LighterFakeOrder,
): string | null {
  const m = o.market
  try {
    state.exchange.place(o.owner, {
      market: m.symbol,
      side: o.isAsk ? 'short' : 'long',
      size: dec(o.baseAmount).div(dec(10).pow(m.sizeDecimals)).toFixed(),
      price: dec(o.price).div(dec(10).pow(m.priceDecimals)).toFixed(),
      timeInForce: TIF[o.timeInForce] ?? 'ioc',
      reduceOnly: o.reduceOnly,
      clientOrderId: o.engineId,
    })
    return null
  } catch (e) {
    if (!(e instanceof VenueRejectedError)) throw e
    return refusalStatus(e.reason)
  }
}
