import * as v from 'valibot'
import {
  AddressSchema,
  DateTimeSchema,
  UuidSchema,
  VenueSchema,
} from './common.js'

/** Per-venue outcome inside a binding batch. */
export const VenueBindingResult = v.object({
  venue: VenueSchema,
  sessionId: v.nullable(v.string()),
  status: v.picklist([
    'awaiting_signatures',
    'queued',
    'confirming',
    'bound',
    'already_bound',
    'failed',
    'expired',
  ]),
  code: v.optional(v.string()),
  retryable: v.optional(v.boolean()),
})
export type VenueBindingResult = v.InferOutput<typeof VenueBindingResult>

const signRequestEntries = {
  requestId: v.pipe(
    v.string(),
    v.regex(
      /^(aster|hl|lighter|lighter-mainnet):(approveAgent|approveBuilderFee|changePubKey|approveIntegrator)$/,
    ),
    v.description('<venue>:<action>'),
  ),
  venue: VenueSchema,
  action: v.picklist([
    'approveAgent',
    'approveBuilderFee',
    'changePubKey',
    'approveIntegrator',
  ]),
}

/**
 * A payload the wallet must sign: a `personal_sign` message (sign as UTF-8,
 * newlines included) or EIP-712 typed data (sign exactly as returned).
 */
export const BindingSignRequest = v.variant('method', [
  v.object({
    ...signRequestEntries,
    method: v.literal('personal_sign'),
    payload: v.object({ message: v.string() }),
  }),
  v.object({
    ...signRequestEntries,
    method: v.literal('eth_signTypedData_v4'),
    payload: v.object({
      domain: v.record(v.string(), v.unknown()),
      types: v.record(
        v.string(),
        v.array(v.object({ name: v.string(), type: v.string() })),
      ),
      primaryType: v.string(),
      message: v.record(v.string(), v.unknown()),
    }),
  }),
])
export type BindingSignRequest = v.InferOutput<typeof BindingSignRequest>

/**
 * A binding batch: per-venue results and the outstanding, unexpired sign
 * requests (accepted signatures are never returned).
 */
export const VenueBindingBatch = v.strictObject({
  bindingId: UuidSchema,
  owner: AddressSchema,
  expiresAt: DateTimeSchema,
  status: v.picklist([
    'awaiting_signatures',
    'processing',
    'bound',
    'partial_success',
    'failed',
  ]),
  results: v.array(VenueBindingResult),
  signRequests: v.array(BindingSignRequest),
})
export type VenueBindingBatch = v.InferOutput<typeof VenueBindingBatch>
