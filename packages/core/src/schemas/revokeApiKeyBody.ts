import * as v from 'valibot'
import { AddressSchema } from './common.js'
import { WalletAuthorizationSchema } from './walletAuthorizationSchema.js'

/** `POST /v1/api-keys/{keyId}/revoke`: a wallet-signed revocation. */
export const RevokeApiKeyBody = v.strictObject({
  owner: AddressSchema,
  authorization: WalletAuthorizationSchema,
})
export type RevokeApiKeyBody = v.InferOutput<typeof RevokeApiKeyBody>
