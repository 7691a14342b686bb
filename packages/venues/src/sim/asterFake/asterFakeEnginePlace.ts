import {
  dec,
  decString,
  type TimeInForce,
  VenueAccountNotFoundError,
  type VenueOrder,
  VenueRejectedError,
} from '@dn/core'
import type { AsterFilters } from '../../aster/precision/asterFilters.js'
import { roundAsterPrice } from '../../aster/precision/roundAsterPrice.js'
import { venueStyle } from '../venueStyle.js'
import { AsterFakeError } from './asterFakeError.js'
import { applyPendingSetting } from './asterFakeLeverage.js'
import type { AsterFakeState } from './asterFakeState.js'

/** Aster's time in force → the engine's. */
export const ENGINE_TIF: Record<string, TimeInForce> = {
  GTC: 'gtc',
  IOC: 'ioc',
  GTX: 'post_only',
}

/** a MARKET order is bounded by `marketTakeBound` of the mark */
const MARKET_TAKE_BOUND = '0.30'

const reasons = venueStyle('aster').reasons

/** The engine's reject wording → Aster's error code. */
function codeOf(reason: string): number {
  if (reason === reasons.margin) return -2019
  if (reason === reasons.reduceOnly) return -2022
  if (reason === reasons.tick) return -4014
  if (reason === reasons.step) return -4023
  if (reason === reasons.unknownMarket) return -1121
  // -5022 and -4116 are Binance's codes; Aster's doc does not list them
  if (reason === reasons.duplicate) return -4116
  if (reason.startsWith('Due to the order could not be executed as maker'))
    return -5022
  if (reason.startsWith("Order's notional")) return -4164
  if (reason.startsWith('Quantity less than')) return -4004
  return -2010
}

/**
 * The price a MARKET order is sent to the engine at: the mark moved by
 * `marketTakeBound` against the taker, on the tick grid.
 */
export function marketPrice(
  state: AsterFakeState,
  filters: AsterFilters,
  symbol: string,
  side: 'BUY' | 'SELL',
): string {
  const mark = state.exchange.quote(symbol).mark
  const bound = dec(1)[side === 'BUY' ? 'add' : 'sub'](MARKET_TAKE_BOUND)
  return roundAsterPrice(
    filters.price,
    decString(dec(mark).mul(bound)),
    side === 'BUY' ? 'down' : 'up',
  )
}

/** What the engine is asked to place. */
interface EngineOrder {
  readonly symbol: string
  readonly side: 'BUY' | 'SELL'
  readonly quantity: string
  readonly price: string
  /** GTC, IOC or GTX */
  readonly tif: string
  readonly reduceOnly: boolean
  readonly clientOrderId: string
}

/**
 * Places an order on the engine, first handing it a leverage or margin
 * type set before the account existed; the engine's refusals become
 * Aster's codes.
 * @throws AsterFakeError
 */
export function placeOnEngine(
  state: AsterFakeState,
  user: string,
  o: EngineOrder,
): VenueOrder {
  try {
    applyPendingSetting(state, user, o.symbol)
    return state.exchange.place(user, {
      market: o.symbol,
      side: o.side === 'BUY' ? 'long' : 'short',
      size: o.quantity,
      price: o.price,
      timeInForce: ENGINE_TIF[o.tif] as TimeInForce,
      reduceOnly: o.reduceOnly,
      clientOrderId: o.clientOrderId,
    })
  } catch (e) {
    if (e instanceof VenueRejectedError) {
      throw new AsterFakeError(codeOf(e.reason), e.reason)
    }
    if (e instanceof VenueAccountNotFoundError) {
      throw new AsterFakeError(-2019, reasons.margin)
    }
    throw e
  }
}
