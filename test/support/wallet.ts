import { randomBytes } from 'node:crypto'
import { DEFAULT_BINDING_AUTH_DOMAIN, walletMessage } from '@dn/core'
import {
  generatePrivateKey,
  type PrivateKeyAccount,
  privateKeyToAccount,
} from 'viem/accounts'

/** A throwaway wallet for tests; its key never leaves the test. */
export function newWallet(): PrivateKeyAccount {
  return privateKeyToAccount(generatePrivateKey())
}

export function newNonce(): string {
  return randomBytes(16).toString('base64url')
}

/** Signs the contract's wallet message as a client would. */
export function signWalletMessage(
  wallet: PrivateKeyAccount,
  action: string,
  payload: unknown,
  domain = DEFAULT_BINDING_AUTH_DOMAIN,
): Promise<`0x${string}`> {
  return wallet.signMessage({ message: walletMessage(domain, action, payload) })
}
