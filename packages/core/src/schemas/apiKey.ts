import * as v from 'valibot'
import {
  AddressSchema,
  DateTimeSchema,
  DecimalStringSchema,
  UuidSchema,
  VenueSchema,
} from './common.js'

const apiKeyEntries = {
  keyId: UuidSchema,
  owner: AddressSchema,
  venues: v.array(VenueSchema),
  maxSizeUsd: DecimalStringSchema,
  label: v.nullable(v.string()),
  createdAt: DateTimeSchema,
}

/** A stored API key as its owner sees it; the secret is never shown. */
export const ApiKey = v.object({
  ...apiKeyEntries,
  revokedAt: v.nullable(DateTimeSchema),
})
export type ApiKey = v.InferOutput<typeof ApiKey>

/** 201 answer to key creation; `apiKey` is the full secret, shown once. */
export const CreatedApiKey = v.object({
  ...apiKeyEntries,
  // a new key is not revoked: null, as every view of a key shows it
  revokedAt: v.null(),
  apiKey: v.pipe(
    v.string(),
    v.description('<key_prefix>_<key_uuid>.<secret>; shown only once'),
  ),
})
export type CreatedApiKey = v.InferOutput<typeof CreatedApiKey>

/** `GET /v1/api-keys`: the wallet owner's keys. */
export const ApiKeyList = v.object({ keys: v.array(ApiKey) })
export type ApiKeyList = v.InferOutput<typeof ApiKeyList>
