import type { Transport } from './transport.js'
import type {
  ApiKey,
  BoundVenue,
  CreatedApiKey,
  Venue,
  VenueAccountList,
  VenueBindingList,
} from './types.js'
import {
  type MessageSigner,
  newNonce,
  signWalletAction,
  walletReadHeaders,
} from './walletAuth.js'

/** Wallet-signed API key management and reads (the wallet is the owner). */
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
      const r = await request<{ keys: ApiKey[] }>('GET', '/v1/api-keys', {
        headers: await walletReadHeaders(signer, domain, 'list_api_keys'),
      })
      return r.keys
    },
    /** The wallet's bound venue accounts (Lighter with its account index). */
    async bindings(signer: MessageSigner): Promise<BoundVenue[]> {
      const r = await request<VenueBindingList>('GET', '/v1/venue-bindings', {
        headers: await walletReadHeaders(signer, domain, 'list_venue_bindings'),
      })
      return r.bindings
    },
    /**
     * The account indexes Lighter lists for the wallet (looked up at the
     * venue now): what `lighter:<accountIndex>` can name when binding.
     */
    async venueAccounts(
      signer: MessageSigner,
    ): Promise<VenueAccountList['venues']> {
      const r = await request<VenueAccountList>('GET', '/v1/venue-accounts', {
        headers: await walletReadHeaders(signer, domain, 'list_venue_accounts'),
      })
      return r.venues
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
