import * as v from 'valibot'
import { DateTimeSchema, VenueSchema } from './common.js'

/** One venue account a wallet has bound, as its owner sees it. */
const BoundVenue = v.object({
  venue: VenueSchema,
  status: v.picklist(['bound', 'unusable', 'revoked']),
  /** Lighter account index as a decimal string; null elsewhere */
  accountIndex: v.nullable(v.string()),
  /** public part of the trading credential: agent address or API key index */
  credentialRef: v.nullable(v.string()),
  /** why an `unusable` binding cannot trade (`credential_unreadable`) */
  unusableCode: v.nullable(v.string()),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
})
export type BoundVenue = v.InferOutput<typeof BoundVenue>

/** `GET /v1/venue-bindings`: the wallet's venue accounts. */
export const VenueBindingList = v.object({ bindings: v.array(BoundVenue) })
export type VenueBindingList = v.InferOutput<typeof VenueBindingList>
