import * as v from 'valibot'
import { SignatureSchema } from './common.js'

/**
 * A wallet's `personal_sign` authorization carried in a JSON body (venue
 * binding prepare, API key create and revoke). The time window
 * (`expiresAt` between now and now + 300 s) and the signature itself are
 * checked by the command, not here.
 */
export const WalletAuthorizationSchema = v.strictObject({
  nonce: v.pipe(
    v.string(),
    v.regex(
      /^[A-Za-z0-9_-]{16,128}$/,
      'must be 16..128 characters of A-Z, a-z, 0-9, _ or -',
    ),
  ),
  expiresAt: v.pipe(
    v.number(),
    v.integer(),
    v.description('Unix seconds; between now and now + 300'),
  ),
  signature: SignatureSchema,
})
export type WalletAuthorizationSchema = v.InferOutput<
  typeof WalletAuthorizationSchema
>
