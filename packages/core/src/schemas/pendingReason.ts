import * as v from 'valibot'
import { DecimalStringSchema, VenueSchema } from './common.js'

const message = v.pipe(v.string(), v.description('in words a user can act on'))

/**
 * Why a pending task has not opened yet, as its latest opening attempt
 * found; `fundingApy` and `minFundingApy` are annualized percent.
 */
export const PendingReasonSchema = v.variant('code', [
  v.object({
    code: v.literal('funding_below_min'),
    message,
    fundingApy: DecimalStringSchema,
    minFundingApy: DecimalStringSchema,
  }),
  v.object({
    code: v.literal('spread_above_max'),
    message,
    spreadBps: DecimalStringSchema,
    maxSpreadBps: DecimalStringSchema,
  }),
  v.object({
    code: v.picklist(['venue_budget', 'venue_unavailable']),
    message,
    venue: v.nullable(VenueSchema),
  }),
  v.object({
    code: v.literal('account_busy'),
    message,
  }),
])
