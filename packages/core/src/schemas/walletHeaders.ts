import * as v from 'valibot'
import type { WalletRead } from '../auth/verifyWalletSignature.js'
import { AddressSchema, SignatureSchema } from './common.js'

/**
 * Wallet authorization headers of wallet-signed reads, lowercase as Node
 * delivers them. Other headers pass through untouched. The time window and
 * the signature are checked by the command.
 */
export const WalletHeaders = v.looseObject({
  'x-wallet-address': AddressSchema,
  'x-wallet-expires-at': v.pipe(
    v.string(),
    v.regex(/^[0-9]{1,15}$/, 'must be integer Unix seconds'),
  ),
  'x-wallet-signature': SignatureSchema,
})
export type WalletHeaders = v.InferOutput<typeof WalletHeaders>

/** The signed read the validated headers carry. */
export function walletReadOf(h: WalletHeaders): WalletRead {
  return {
    owner: h['x-wallet-address'],
    expiresAt: Number(h['x-wallet-expires-at']),
    signature: h['x-wallet-signature'],
  }
}
