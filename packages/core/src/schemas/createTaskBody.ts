import * as v from 'valibot'
import { VENUES } from '../domain/venue.js'
import {
  MAX_AMOUNT,
  MarketSchema,
  PositiveAmountSchema,
  VenueSchema,
} from './common.js'

/**
 * `POST /v1/delta-neutral/tasks`: one long leg and one short leg on two
 * different venues. Defaults (`minFundingApy` 0, `autoClose` true) are
 * documented, not filled in: the parsed value keeps absent fields absent.
 */
export const CreateTaskBody = v.pipe(
  v.strictObject({
    longVenue: VenueSchema,
    shortVenue: VenueSchema,
    longMarket: MarketSchema,
    shortMarket: MarketSchema,
    sizeUsd: v.pipe(
      v.number(),
      v.minValue(10),
      v.maxValue(MAX_AMOUNT),
      v.description('USD per leg'),
    ),
    minFundingApy: v.optional(
      v.pipe(
        v.number(),
        v.minValue(0),
        v.maxValue(999_999),
        v.metadata({ default: 0 }),
      ),
    ),
    autoClose: v.optional(v.pipe(v.boolean(), v.metadata({ default: true }))),
    maxSpreadBps: v.optional(PositiveAmountSchema),
    liqProtectionPct: v.optional(
      v.pipe(v.number(), v.gtValue(0), v.maxValue(100)),
    ),
    sizeMismatchPct: v.optional(
      v.pipe(v.number(), v.minValue(0.5), v.maxValue(100)),
    ),
  }),
  v.forward(
    v.partialCheck(
      [['longVenue'], ['shortVenue']],
      (input) => input.longVenue !== input.shortVenue,
      'must differ from longVenue',
    ),
    ['shortVenue'],
  ),
  v.metadata({
    description: 'longVenue and shortVenue must differ.',
    not: {
      anyOf: VENUES.map((venue) => ({
        properties: {
          longVenue: { const: venue },
          shortVenue: { const: venue },
        },
        required: ['longVenue', 'shortVenue'],
      })),
    },
  }),
)
export type CreateTaskBody = v.InferOutput<typeof CreateTaskBody>
