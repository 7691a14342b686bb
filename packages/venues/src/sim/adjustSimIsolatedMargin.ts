import { type Decimal, VenueRejectedError } from '@dn/core'
import { advanceSim } from './advanceSim.js'
import { freeMargin } from './liquidationPrice.js'
import { accountOf, marketOf, type SimState, settingsOf } from './simState.js'

/**
 * Moves `deltaUsd` of collateral into (positive) or out of (negative) the
 * margin of the owner's isolated position on `market`, as Hyperliquid's
 * `updateIsolatedMargin` does. Adding needs that much free cross margin;
 * removing may not take the position's margin below its initial margin at
 * the mark (|size| x mark / leverage). Refusal texts are the engine's own
 * [unverified against any venue].
 */
export function adjustSimIsolatedMargin(
  state: SimState,
  owner: string,
  market: string,
  deltaUsd: Decimal,
): void {
  advanceSim(state)
  const account = accountOf(state, owner)
  const m = marketOf(state, market)
  const p = account.positions.get(market)
  const settings = settingsOf(account, m.market)
  if (!p || p.size.isZero() || settings.marginMode !== 'isolated') {
    throw new VenueRejectedError('No isolated position to update margin for.')
  }
  if (deltaUsd.gt(0) && freeMargin(state, account).lt(deltaUsd)) {
    throw new VenueRejectedError('Insufficient margin to add.')
  }
  const next = p.isolatedMargin.add(deltaUsd)
  const initial = p.size.abs().mul(m.walk.mark).div(settings.leverage)
  if (deltaUsd.lt(0) && next.lt(initial)) {
    throw new VenueRejectedError('Cannot remove that much margin.')
  }
  p.isolatedMargin = next
}
