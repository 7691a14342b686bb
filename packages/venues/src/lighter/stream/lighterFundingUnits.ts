import { dec, decString } from '@dn/core'

/**
 * Lighter pays funding every hour (docs.lighter.xyz/trading/funding), but
 * its two current-rate figures are in other units than "fraction per hour":
 *
 * - `funding-rates` (REST) `rate`: a bare float, the fraction for **eight
 *   hours** (the hourly rate times 8, the convention of 8-hour venues so the
 *   figures line up beside Binance's and Bybit's in the same answer);
 * - `market_stats` (WebSocket) `current_funding_rate` / `funding_rate`: a
 *   signed **percent for one hour** (`"0.0012"` = 0.000012 of the notional).
 *
 * So one REST unit is 12.5 stream units, and the hourly fraction the service
 * works in is `rate / 8` or `percent / 100`. Sources (read, not executed),
 * which agree with each other: docs.rs `df-lighter-core`
 * `src/markets/funding.rs` ("`funding-rates` writes each venue's current
 * rate as a fraction over eight hours"); a funding bot's regression tests
 * ("FundingApi.funding_rates() returns 8-hour rates in DECIMAL format. The
 * adapter divides by 8 to get hourly rates. NO division by 100"); an
 * arbitrage dashboard's `LIGHTER_FUNDING_WINDOW_HOURS = 8`; a Lighter
 * terminal's `market_stats/all` reader (percent per hour, "merging the raw
 * value used to inflate the funding column 12.5×"). Lighter's own API docs
 * give examples only, no unit: **[unverified against the live venue]**.
 *
 * @module
 */

/** Hours of funding one REST `funding-rates` `rate` stands for. */
const LIGHTER_REST_RATE_HOURS = 8

/** REST `funding-rates` `rate` (fraction per 8 h) → fraction per hour. */
export function hourlyFromRestRate(rate: string | number): string {
  return decString(dec(rate).div(LIGHTER_REST_RATE_HOURS))
}

/** Fraction per hour → REST `funding-rates` `rate` (for the fake). */
export function restRateFromHourly(hourly: string | number): string {
  return decString(dec(hourly).mul(LIGHTER_REST_RATE_HOURS))
}

/** Stream `current_funding_rate` (percent per hour) → fraction per hour. */
export function hourlyFromStreamRate(percent: string | number): string {
  return decString(dec(percent).div(100))
}

/** Fraction per hour → stream `current_funding_rate` (for the fake). */
export function streamRateFromHourly(hourly: string | number): string {
  return decString(dec(hourly).mul(100))
}
