import {
  ApiKey,
  ApiKeyList,
  CreateApiKeyBody,
  CreatedApiKey,
  createApiKey,
  EmptyQuery,
  listApiKeys,
  RevokeApiKeyBody,
  revokeApiKey,
  WalletHeaders,
  walletReadOf,
} from '@dn/core'
import { WALLET_BODY_ERRORS, WALLET_ERRORS } from './errorCodeSets.js'
import { publicHandler } from './publicHandler.js'
import { defineRoute } from './routeSpec.js'

const walletSigned = {
  tag: 'API keys',
  auth: 'wallet',
  idempotent: false,
} as const

/**
 * Wallet-signed key management (DESIGN.md "Key creation"): the wallet signs
 * the contract's wallet message with actions `create_api_key`,
 * `list_api_keys` and `revoke_api_key`.
 */
export const API_KEY_ROUTES = [
  defineRoute(
    {
      ...walletSigned,
      method: 'POST',
      path: '/v1/api-keys',
      operationId: 'createApiKey',
      summary: 'Create a scoped API key (wallet-signed)',
      request: { body: CreateApiKeyBody, query: EmptyQuery },
      success: {
        status: 201,
        schema: CreatedApiKey,
        description: 'The key; its secret is shown only here',
      },
      errors: [...WALLET_BODY_ERRORS, 'insufficient_bound_venues'],
      reservedStatuses: [403],
    },
    (env) => publicHandler(env, (input) => createApiKey(env.deps, input.body)),
  ),
  defineRoute(
    {
      ...walletSigned,
      method: 'GET',
      path: '/v1/api-keys',
      operationId: 'listApiKeys',
      summary: "List the wallet owner's API keys (wallet-signed headers)",
      request: { query: EmptyQuery, headers: WalletHeaders },
      success: { status: 200, schema: ApiKeyList, description: 'The keys' },
      errors: [...WALLET_ERRORS, 'invalid_wallet_headers'],
    },
    (env) =>
      publicHandler(env, ({ headers: h }) =>
        listApiKeys(env.deps, walletReadOf(h)),
      ),
  ),
  defineRoute(
    {
      ...walletSigned,
      method: 'POST',
      path: '/v1/api-keys/{keyId}/revoke',
      operationId: 'revokeApiKey',
      summary: 'Revoke an API key at once (wallet-signed)',
      request: { body: RevokeApiKeyBody, query: EmptyQuery },
      success: { status: 200, schema: ApiKey, description: 'The revoked key' },
      errors: [
        ...WALLET_BODY_ERRORS,
        'invalid_path_id',
        'api_key_not_found',
        'api_key_revoked',
      ],
      reservedStatuses: [403],
    },
    (env) =>
      publicHandler(env, (input) =>
        revokeApiKey(env.deps, input.params.keyId as string, input.body),
      ),
  ),
]
