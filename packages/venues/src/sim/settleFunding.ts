import { dec, decString, msToIso } from '@dn/core'
import { fundingRate } from './fundingRate.js'
import { HOUR_MS, type SimState } from './simState.js'

/**
 * Settles the UTC hour that ends at `at` on every open position:
 * payment = -size x mark x rate (a long pays a positive rate), rounded to
 * micro-dollars, added to collateral and recorded as a FundingPayment.
 */
export function settleFunding(state: SimState, at: number): void {
  const hourIndex = Math.round(at / HOUR_MS) - 1
  const time = msToIso(at)
  for (const account of state.accounts.values()) {
    for (const [symbol, p] of account.positions) {
      const m = state.markets.get(symbol)
      if (!m || p.size.isZero()) continue
      const rate = fundingRate(m.market, state.seed, hourIndex)
      const amount = p.size.mul(m.walk.mark).mul(rate).neg().toDecimalPlaces(6)
      account.collateral = account.collateral.add(amount)
      account.funding.push({
        market: symbol,
        time,
        amountUsd: decString(amount.isZero() ? dec(0) : amount),
        rate: decString(rate),
        positionSize: decString(p.size),
      })
    }
  }
}
