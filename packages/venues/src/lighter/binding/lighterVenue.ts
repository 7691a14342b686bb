import type { VenueId } from '@dn/core'

/** The two Lighter deployments the service binds. */
export type LighterVenue = Extract<VenueId, 'lighter' | 'lighter-mainnet'>

export function isLighterVenue(venue: string): venue is LighterVenue {
  return venue === 'lighter' || venue === 'lighter-mainnet'
}

/** @throws RangeError unless `venue` is a Lighter venue */
export function requireLighterVenue(venue: string): LighterVenue {
  if (!isLighterVenue(venue)) {
    throw new RangeError(`not a Lighter venue: ${venue}`)
  }
  return venue
}
