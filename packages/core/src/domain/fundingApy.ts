import { type Decimal, dec } from '../util/decimal.js'

const HOURS_A_YEAR = 24 * 365

/**
 * An hourly funding rate (a fraction) annualized, in percent: how every
 * APY the service shows or compares (`minFundingApy`) is expressed.
 */
export function apyPct(hourlyRate: Decimal | string): Decimal {
  return dec(hourlyRate).mul(HOURS_A_YEAR).mul(100)
}
