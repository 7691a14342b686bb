import * as v from 'valibot'
import { VENUES } from '../domain/venue.js'
import { BindingTarget } from './bindingTarget.js'
import { AddressSchema } from './common.js'
import { WalletAuthorizationSchema } from './walletAuthorizationSchema.js'

/**
 * `POST /v1/venue-bindings/prepare`: 1..4 distinct venue targets (array
 * order is signed) and the owner's wallet authorization.
 */
export const PrepareVenueBindingsBody = v.strictObject({
  owner: AddressSchema,
  venues: v.pipe(
    v.array(BindingTarget),
    v.minLength(1),
    v.maxLength(4),
    v.checkItems(
      (item, index, items) =>
        items.findIndex((other) => other.venue === item.venue) === index,
      'duplicate venue',
    ),
    v.metadata({
      description: 'distinct venues; array order is signed',
      // at most one item per venue
      allOf: VENUES.map((venue) => ({
        not: {
          contains: { properties: { venue: { const: venue } } },
          minContains: 2,
        },
      })),
    }),
  ),
  authorization: WalletAuthorizationSchema,
})
export type PrepareVenueBindingsBody = v.InferOutput<
  typeof PrepareVenueBindingsBody
>
