import {
  CreateApiKeyBody,
  createApiKey,
  listApiKeys,
  parseInput,
  RevokeApiKeyBody,
  revokeApiKey,
  WalletHeaders,
} from '@dn/core'
import { json } from '../http/httpResponse.js'
import { readJsonBody } from '../http/readJsonBody.js'
import { pathId, requireNoQuery } from '../http/requestInput.js'
import type { Route } from '../router.js'
import type { ServerDeps } from '../serverDeps.js'

/**
 * Wallet-signed key management (DESIGN.md "Key creation"): the wallet signs
 * the contract's wallet message with actions `create_api_key`,
 * `list_api_keys` and `revoke_api_key`.
 */
export function apiKeyRoutes(deps: ServerDeps): Route[] {
  return [
    {
      method: 'POST',
      pattern: '/v1/api-keys',
      handler: async (ctx) => {
        requireNoQuery(ctx)
        const body = parseInput(
          CreateApiKeyBody,
          await readJsonBody(ctx.req),
          'invalid_body',
        )
        return json(201, await createApiKey(deps, body))
      },
    },
    {
      method: 'GET',
      pattern: '/v1/api-keys',
      handler: async (ctx) => {
        requireNoQuery(ctx)
        const h = parseInput(
          WalletHeaders,
          ctx.req.headers,
          'invalid_wallet_headers',
        )
        return json(
          200,
          await listApiKeys(deps, {
            owner: h['x-wallet-address'],
            expiresAt: Number(h['x-wallet-expires-at']),
            signature: h['x-wallet-signature'],
          }),
        )
      },
    },
    {
      method: 'POST',
      pattern: '/v1/api-keys/{keyId}/revoke',
      handler: async (ctx) => {
        const keyId = pathId(ctx, 'keyId')
        requireNoQuery(ctx)
        const body = parseInput(
          RevokeApiKeyBody,
          await readJsonBody(ctx.req),
          'invalid_body',
        )
        return json(200, await revokeApiKey(deps, keyId, body))
      },
    },
  ]
}
