import type { Hex } from 'viem'
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'

/** Accounts kept, least recently used dropped first. */
const MAX = 1_024

const accounts = new Map<string, PrivateKeyAccount>()

/**
 * The viem account of an agent key, derived once per key: deriving it
 * (a secp256k1 public key) cost about 1 ms of CPU, paid twice per signed
 * Hyperliquid or Aster request (its address names the nonce, then it
 * signs). The keys are the process's decrypted agent keys, kept no longer
 * than the process; a rebind brings a new key, and the old one ages out.
 *
 * @example localAccount(key).address
 */
export function localAccount(privateKey: Hex): PrivateKeyAccount {
  const cached = accounts.get(privateKey)
  if (cached !== undefined) {
    // re-inserted: the Map's order is the recency order
    accounts.delete(privateKey)
    accounts.set(privateKey, cached)
    return cached
  }
  const account = privateKeyToAccount(privateKey)
  accounts.set(privateKey, account)
  if (accounts.size > MAX) {
    const oldest = accounts.keys().next().value
    if (oldest !== undefined) accounts.delete(oldest)
  }
  return account
}
