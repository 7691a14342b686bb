import * as v from 'valibot'
import { MAX_SAFE_INTEGER, VenueSchema } from './common.js'

/** What one venue lists for the wallet's L1 address. */
const VenueAccounts = v.object({
  venue: VenueSchema,
  /**
   * `found`: the venue lists accounts for the address; `missing`: none;
   * `unavailable`: the venue could not be asked now (not an absence)
   */
  status: v.picklist(['found', 'missing', 'unavailable']),
  /** the indexes a binding target's `accountIndex` can take, ascending */
  accountIndexes: v.array(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(0),
      v.maxValue(MAX_SAFE_INTEGER),
    ),
  ),
})
export type VenueAccounts = v.InferOutput<typeof VenueAccounts>

/**
 * `GET /v1/venue-accounts`: the accounts each venue that names accounts by
 * index (Lighter) lists for the wallet, looked up at the venue now.
 */
export const VenueAccountList = v.object({ venues: v.array(VenueAccounts) })
export type VenueAccountList = v.InferOutput<typeof VenueAccountList>
