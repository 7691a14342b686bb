import type { Transport } from './transport.js'
import type { ApiKey, CreatedApiKey, Venue } from './types.js'
import { type MessageSigner, newNonce, signWalletAction } from './walletAuth.js'

/** Wallet-signed API key management (the wallet is the owner). */
export function createApiKeyApi(request: Transport, domain: string) {
  const expiry = () => Math.floor(Date.now() / 1000) + 120
  return {
    /** Creates an API key signed by the wallet; the secret is in `apiKey`. */
    async create(
      signer: MessageSigner,
      p: { venues: Venue[]; maxSizeUsd: number; label?: string },
    ): Promise<CreatedApiKey> {
      const owner = signer.address.toLowerCase()
      const nonce = newNonce()
      const expiresAt = expiry()
      const signature = await signWalletAction(
        signer,
        domain,
        'create_api_key',
        {
          owner,
          venues: p.venues,
          maxSizeUsd: p.maxSizeUsd,
          label: p.label ?? null,
          nonce,
          expiresAt,
        },
      )
      return request('POST', '/v1/api-keys', {
        body: { owner, ...p, authorization: { nonce, expiresAt, signature } },
      })
    },
    async list(signer: MessageSigner): Promise<ApiKey[]> {
      const owner = signer.address.toLowerCase()
      const expiresAt = expiry()
      const signature = await signWalletAction(
        signer,
        domain,
        'list_api_keys',
        { owner, expiresAt },
      )
      const r = await request<{ keys: ApiKey[] }>('GET', '/v1/api-keys', {
        headers: {
          'x-wallet-address': owner,
          'x-wallet-expires-at': String(expiresAt),
          'x-wallet-signature': signature,
        },
      })
      return r.keys
    },
    async revoke(signer: MessageSigner, keyId: string): Promise<ApiKey> {
      const owner = signer.address.toLowerCase()
      const nonce = newNonce()
      const expiresAt = expiry()
      const signature = await signWalletAction(
        signer,
        domain,
        'revoke_api_key',
        { owner, keyId, nonce, expiresAt },
      )
      return request('POST', `/v1/api-keys/${keyId}/revoke`, {
        body: { owner, authorization: { nonce, expiresAt, signature } },
      })
    },
  }
}
