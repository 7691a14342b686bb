import * as v from 'valibot'
import { MarketSchema, PositiveAmountSchema, VenueSchema } from './common.js'

const sharedEntries = {
  venue: VenueSchema,
  market: MarketSchema,
  side: v.picklist(['long', 'short']),
  sizeBase: PositiveAmountSchema,
  reduceOnly: v.optional(v.pipe(v.boolean(), v.metadata({ default: false }))),
  expirySeconds: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(1),
      v.maxValue(86_400),
      v.description('default 60 for ioc, 3600 otherwise'),
    ),
  ),
}

/** A market order: no limit price, `ioc` only, optional slippage bound. */
const MarketOrderBody = v.strictObject({
  ...sharedEntries,
  orderType: v.literal('market'),
  limitPrice: v.optional(v.never('only allowed for limit orders')),
  timeInForce: v.optional(
    v.pipe(
      v.literal('ioc', 'market orders accept only "ioc"'),
      v.metadata({ default: 'ioc' }),
    ),
  ),
  slippageBps: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(0),
      v.maxValue(5000),
      v.metadata({ default: 100 }),
    ),
  ),
})

/** A limit order: limit price required, no slippage bound. */
const LimitOrderBody = v.strictObject({
  ...sharedEntries,
  orderType: v.literal('limit'),
  limitPrice: PositiveAmountSchema,
  timeInForce: v.optional(
    v.pipe(
      v.picklist(['gtc', 'ioc', 'post_only']),
      v.metadata({ default: 'gtc' }),
    ),
  ),
  slippageBps: v.optional(v.never('only allowed for market orders')),
})

/**
 * `POST /v1/perp/orders`, one of two strict shapes chosen by `orderType`,
 * so JSON Schema gets a `oneOf`. Fields forbidden for one type are declared
 * as `never` in that branch, which keeps them readable on the union type.
 */
export const CreatePerpOrderBody = v.variant('orderType', [
  MarketOrderBody,
  LimitOrderBody,
])
export type CreatePerpOrderBody = v.InferOutput<typeof CreatePerpOrderBody>
