export const VENUES = ['aster', 'hl', 'lighter', 'lighter-mainnet'] as const
export type VenueId = (typeof VENUES)[number]

export function isVenueId(value: unknown): value is VenueId {
  return (
    typeof value === 'string' && (VENUES as readonly string[]).includes(value)
  )
}
