import { dec, decString, msToIso } from '@dn/core'
import { fundingRate } from './fundingRate.js'
import { HOUR_MS, type SimState } from './simState.js'

/**
 * Settles the funding period that ends at `at` on every open position:
 * payment = -size x mark x rate (a long pays a positive rate), the
 * period's share of the hourly rate (all of it for the default hour, a
 * sixtieth for a minute), rounded to micro-dollars, added to collateral
 * and recorded as a FundingPayment with the rate applied.
 */
export function settleFunding(state: SimState, at: number): void {
  const period = Math.round(at / state.fundingIntervalMs) - 1
  const share = dec(state.fundingIntervalMs).div(HOUR_MS)
  const time = msToIso(at)
  for (const account of state.accounts.values()) {
    for (const [symbol, p] of account.positions) {
      const m = state.markets.get(symbol)
      if (!m || p.size.isZero()) continue
      const rate = fundingRate(m.market, state.seed, period).mul(share)
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
