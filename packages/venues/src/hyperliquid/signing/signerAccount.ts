import type { Hex, LocalAccount } from 'viem'
import { localAccount } from '../../signing/localAccount.js'

/** What can sign typed data locally: a viem account, or its key. */
export type HlSignerAccount = Pick<LocalAccount, 'address' | 'signTypedData'>

/** Either a private key or a viem account signs a Hyperliquid action. */
export type HlSignerInput =
  | { readonly privateKey: Hex; readonly account?: undefined }
  | { readonly account: HlSignerAccount; readonly privateKey?: undefined }

/** `{r, s, v}` as Hyperliquid's `/exchange` expects: r/s 32-byte hex. */
export interface HlSignature {
  readonly r: Hex
  readonly s: Hex
  readonly v: 27 | 28
}

/**
 * Resolves the signer of a Hyperliquid action to a viem account.
 * @internal
 * @throws RangeError when neither `privateKey` nor `account` is given
 * @example signerAccount({ privateKey: '0x01…' }).address
 */
export function signerAccount(input: HlSignerInput): HlSignerAccount {
  if (input.account) return input.account
  if (input.privateKey) return localAccount(input.privateKey)
  throw new RangeError('a privateKey or an account is required')
}
