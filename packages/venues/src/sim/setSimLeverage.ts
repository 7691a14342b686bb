import { type MarginMode, VenueRejectedError } from '@dn/core'
import { advanceSim } from './advanceSim.js'
import { accountOf, marketOf, type SimState, settingsOf } from './simState.js'

/**
 * Sets the owner's leverage (a whole number from 1 to the market's maximum)
 * and margin mode on one market. The mode cannot change while a position
 * or a resting order exists there, as on the real venues; a new leverage
 * applies to margin reserved from now on.
 */
export function setSimLeverage(
  state: SimState,
  owner: string,
  market: string,
  leverage: number,
  marginMode: MarginMode,
): void {
  advanceSim(state)
  const account = accountOf(state, owner)
  const m = marketOf(state, market)
  const reasons = state.style.reasons
  if (
    !Number.isInteger(leverage) ||
    leverage < 1 ||
    leverage > m.market.maxLeverage
  ) {
    throw new VenueRejectedError(reasons.leverage)
  }
  const current = settingsOf(account, m.market)
  const busy =
    account.positions.has(market) ||
    [...state.resting].some(
      (o) => o.owner === account.owner && o.market === market,
    )
  if (current.marginMode !== marginMode && busy) {
    throw new VenueRejectedError(reasons.modeChange)
  }
  account.settings.set(market, { leverage, marginMode })
}
