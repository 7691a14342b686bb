import { dec, decString } from '@dn/core'

/**
 * Lighter's two funding figures are in different units:
 *
 * - `market_stats` (WebSocket) `current_funding_rate` / `funding_rate`:
 *   a signed percent for one hour (`"0.0012"` = 0.000012 of the notional);
 * - `funding-rates` (REST) `rate`: a bare float, the fraction for eight
 *   hours.
 *
 * So one REST unit is 12.5 stream units: `rate = percent / 100 * 8`.
 * Sources (read, not executed): docs.rs `df-lighter-core`
 * `src/markets/funding.rs` ("`funding-rates` writes each venue's current
 * rate as a fraction over eight hours"; `fundings` in percent for the
 * hour) and a Lighter terminal's `market_stats/all` reader ("the stream
 * sends a signed percent PER HOUR ... an 8-hour ratio ... is what
 * `funding-rates` returns. Merging the raw value used to inflate the
 * funding column 12.5×"). Lighter's own docs only give examples
 * (`"current_funding_rate": "0.0057"`), no unit. **[unverified against
 * the live venue]**: if a capture shows the two fields equal, set this
 * factor to 1.
 *
 * @module
 */

/** REST `funding-rates` units per stream `market_stats` unit. */
export const REST_RATE_PER_STREAM_RATE = '0.08'

/** A stream funding figure in the units of REST `funding-rates` `rate`. */
export function restRateFromStream(streamRate: string): string {
  return decString(dec(streamRate).mul(REST_RATE_PER_STREAM_RATE))
}

/** A REST `funding-rates` `rate` as the stream writes it (for the fake). */
export function streamRateFromRest(restRate: string | number): string {
  return decString(dec(restRate).div(REST_RATE_PER_STREAM_RATE))
}
