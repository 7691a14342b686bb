import * as v from 'valibot'
import { SignatureSchema } from './common.js'

/**
 * `POST /v1/venue-bindings/{bindingId}/submit`: 1..8 signatures, each
 * mapped by `requestId` to an issued sign request. Unknown and duplicate
 * request IDs are rejected by the command, which knows the issued set.
 */
export const SubmitVenueBindingsBody = v.strictObject({
  signatures: v.pipe(
    v.array(
      v.strictObject({
        requestId: v.string(),
        signature: SignatureSchema,
      }),
    ),
    v.minLength(1),
    v.maxLength(8),
  ),
})
export type SubmitVenueBindingsBody = v.InferOutput<
  typeof SubmitVenueBindingsBody
>
