import { type Hex, recoverMessageAddress } from 'viem'
import { UnauthorizedError } from '../errors/domain.js'
import { walletMessage } from './walletMessage.js'

export interface VerifyWalletSignatureParameters {
  readonly domain: string
  readonly action: string
  readonly owner: string
  readonly payload: unknown
  readonly signature: string
  /** Unix seconds the signer chose; must lie in (now, now + 300] */
  readonly expiresAt: number
  readonly nowMs: number
}

/** Longest a wallet authorization may live, in seconds. */
export const MAX_WALLET_AUTH_SECONDS = 300

/**
 * Checks the expiry window and that the EIP-191 signature over the wallet
 * message recovers to `owner`. Pure: recovery needs no RPC.
 */
export async function verifyWalletSignature(
  p: VerifyWalletSignatureParameters,
): Promise<void> {
  const now = Math.floor(p.nowMs / 1000)
  if (p.expiresAt <= now) {
    throw new UnauthorizedError(
      'authorization_expired',
      'wallet authorization has expired; sign a new one',
    )
  }
  if (p.expiresAt > now + MAX_WALLET_AUTH_SECONDS) {
    throw new UnauthorizedError(
      'authorization_expiry_too_far',
      `wallet authorization may be valid for at most ${MAX_WALLET_AUTH_SECONDS} seconds`,
    )
  }
  let recovered: string
  try {
    recovered = await recoverMessageAddress({
      message: walletMessage(p.domain, p.action, p.payload),
      signature: p.signature as Hex,
    })
  } catch {
    throw new UnauthorizedError(
      'invalid_signature',
      'wallet signature cannot be recovered',
    )
  }
  if (recovered.toLowerCase() !== p.owner.toLowerCase()) {
    throw new UnauthorizedError(
      'invalid_signature',
      'wallet signature does not match the owner address',
    )
  }
}

/** A wallet-signed read as its `x-wallet-*` headers carry it. */
export interface WalletRead {
  readonly owner: string
  readonly expiresAt: number
  readonly signature: string
}

/**
 * Verifies a signed read (`list_api_keys`, `list_venue_bindings`, `read`):
 * the owner signed `{owner, ...names, expiresAt}`. Returns the owner,
 * lowercased.
 */
export async function verifyWalletRead(
  p: WalletRead & {
    readonly domain: string
    readonly action: string
    readonly nowMs: number
    readonly names?: Readonly<Record<string, string>>
  },
): Promise<string> {
  const owner = p.owner.toLowerCase()
  await verifyWalletSignature({
    domain: p.domain,
    action: p.action,
    owner,
    payload: { owner, ...p.names, expiresAt: p.expiresAt },
    signature: p.signature,
    expiresAt: p.expiresAt,
    nowMs: p.nowMs,
  })
  return owner
}
