import * as v from 'valibot'
import { AddressSchema, PositiveAmountSchema, VenueSchema } from './common.js'
import { WalletAuthorizationSchema } from './walletAuthorizationSchema.js'

/** `POST /v1/api-keys`: a wallet-signed request for a new scoped key. */
export const CreateApiKeyBody = v.strictObject({
  owner: AddressSchema,
  venues: v.pipe(
    v.array(VenueSchema),
    v.minLength(1),
    v.maxLength(4),
    v.checkItems(
      (item, index, items) => items.indexOf(item) === index,
      'duplicate venue',
    ),
    v.metadata({ uniqueItems: true }),
  ),
  maxSizeUsd: PositiveAmountSchema,
  label: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(64))),
  authorization: WalletAuthorizationSchema,
})
export type CreateApiKeyBody = v.InferOutput<typeof CreateApiKeyBody>
