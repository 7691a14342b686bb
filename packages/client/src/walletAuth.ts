import { randomBytes } from 'node:crypto'

/** Anything that can personal_sign: a viem account or wallet client. */
export interface MessageSigner {
  readonly address: string
  signMessage(args: { message: string }): Promise<string>
}

/** A wallet that can also sign EIP-712 typed data (venue sign requests). */
export interface WalletSigner extends MessageSigner {
  signTypedData(args: {
    domain: Record<string, unknown>
    types: Record<string, readonly { name: string; type: string }[]>
    primaryType: string
    message: Record<string, unknown>
  }): Promise<string>
}

/** Sorted keys, no whitespace: the payload form the service verifies. */
export function canonicalJson(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort)
    if (v !== null && typeof v === 'object') {
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
          .map((k) => [k, sort((v as Record<string, unknown>)[k])]),
      )
    }
    return v
  }
  return JSON.stringify(sort(value))
}

/** Signs the service's four-line wallet message. */
export function signWalletAction(
  signer: MessageSigner,
  domain: string,
  action: string,
  payload: unknown,
): Promise<string> {
  const message = [
    'service venue binding v1',
    `domain=${domain}`,
    `action=${action}`,
    `payload=${canonicalJson(payload)}`,
  ].join('\n')
  return signer.signMessage({ message })
}

export function newNonce(): string {
  return randomBytes(18).toString('base64url')
}

/**
 * The `x-wallet-*` headers of a wallet-signed read: the owner signs
 * `{owner, expiresAt}` (`list_api_keys`, `list_venue_bindings`) plus what
 * the read names (`read`: `bindingId`).
 */
export async function walletReadHeaders(
  signer: MessageSigner,
  domain: string,
  action: string,
  names: Readonly<Record<string, string>> = {},
): Promise<Record<string, string>> {
  const owner = signer.address.toLowerCase()
  const expiresAt = Math.floor(Date.now() / 1000) + 120
  const signature = await signWalletAction(signer, domain, action, {
    owner,
    ...names,
    expiresAt,
  })
  return {
    'x-wallet-address': owner,
    'x-wallet-expires-at': String(expiresAt),
    'x-wallet-signature': signature,
  }
}
