import { dec, decString, type VenuePosition } from '@dn/core'
import { advanceSim } from './advanceSim.js'
import { liquidationPrice } from './liquidationPrice.js'
import { accountOf, type SimState, settingsOf } from './simState.js'

/** The owner's open net positions, as the port reports them. */
export function simPositions(state: SimState, owner: string): VenuePosition[] {
  advanceSim(state)
  const account = accountOf(state, owner)
  const out: VenuePosition[] = []
  for (const [symbol, p] of account.positions) {
    const m = state.markets.get(symbol)
    if (!m) continue
    const settings = settingsOf(account, m.market)
    const liq = liquidationPrice(state, account, symbol)
    const decimals = dec(m.market.tickSize).decimalPlaces() + 6
    out.push({
      market: symbol,
      size: decString(p.size),
      entryPrice: decString(p.entry.toDecimalPlaces(decimals)),
      markPrice: decString(m.walk.mark),
      leverage: String(settings.leverage),
      marginMode: settings.marginMode,
      liquidationPrice: liq === null ? null : decString(liq),
    })
  }
  return out
}
