import { hashApiKeySecret, mintApiKey } from '../auth/apiKeyToken.js'
import {
  verifyWalletRead,
  verifyWalletSignature,
  type WalletRead,
} from '../auth/verifyWalletSignature.js'
import type { ApiKeyRecord } from '../domain/apiKey.js'
import type { VenueId } from '../domain/venue.js'
import { ConflictError, NotFoundError } from '../errors/domain.js'
import type { Clock } from '../ports/clock.js'
import type { Repos, Store } from '../ports/store.js'
import { decString } from '../util/decimal.js'
import { msToIso } from '../util/time.js'

export interface ApiKeyDeps {
  readonly store: Store
  readonly clock: Clock
  readonly env: string
  /** HMAC key for API-key secrets, derived from DN_MASTER_KEY */
  readonly pepper: Buffer
  /** BINDING_AUTH_DOMAIN, the label in every wallet message */
  readonly authDomain: string
}

export interface WalletAuthorization {
  readonly nonce: string
  readonly expiresAt: number
  readonly signature: string
}

export interface CreateApiKeyParameters {
  readonly owner: string
  readonly venues: readonly VenueId[]
  readonly maxSizeUsd: number
  readonly label?: string | undefined
  readonly authorization: WalletAuthorization
}

export interface ApiKeyView {
  readonly keyId: string
  readonly owner: string
  readonly venues: readonly VenueId[]
  readonly maxSizeUsd: string
  readonly label: string | null
  readonly createdAt: string
  readonly revokedAt: string | null
}

export function apiKeyView(k: ApiKeyRecord): ApiKeyView {
  return {
    keyId: k.id,
    owner: k.owner,
    venues: k.venues,
    maxSizeUsd: k.maxSizeUsd,
    label: k.label,
    createdAt: k.createdAt,
    revokedAt: k.revokedAt,
  }
}

/** Venues a wallet must have bound before it may create a key. */
export const MIN_BOUND_VENUES_FOR_KEY = 2

async function useNonce(
  store: Pick<Repos, 'walletNonces'>,
  owner: string,
  nonce: string,
  action: string,
  at: string,
): Promise<void> {
  if (!(await store.walletNonces.use(owner, nonce, action, at))) {
    throw new ConflictError(
      'nonce_reused',
      'this authorization nonce was already used; sign a new one',
    )
  }
}

/**
 * Creates a key for a wallet that signed `create_api_key`. The secret is
 * returned here once and stored only as a keyed hash.
 */
export async function createApiKey(
  deps: ApiKeyDeps,
  p: CreateApiKeyParameters,
): Promise<ApiKeyView & { apiKey: string }> {
  const owner = p.owner.toLowerCase()
  await verifyWalletSignature({
    domain: deps.authDomain,
    action: 'create_api_key',
    owner,
    payload: {
      owner,
      venues: p.venues,
      maxSizeUsd: p.maxSizeUsd,
      label: p.label ?? null,
      nonce: p.authorization.nonce,
      expiresAt: p.authorization.expiresAt,
    },
    signature: p.authorization.signature,
    expiresAt: p.authorization.expiresAt,
    nowMs: deps.clock.now(),
  })
  const now = msToIso(deps.clock.now())
  const minted = mintApiKey(deps.env)
  const record: ApiKeyRecord = {
    id: minted.keyId,
    owner,
    env: deps.env,
    venues: [...p.venues].sort(),
    maxSizeUsd: decString(p.maxSizeUsd),
    label: p.label ?? null,
    secretHash: hashApiKeySecret(deps.pepper, minted.secret),
    createdAt: now,
    revokedAt: null,
  }
  await deps.store.transaction(async (tx) => {
    const bound = (await tx.bindings.listByOwner(owner)).filter(
      (b) => b.status === 'bound',
    )
    if (bound.length < MIN_BOUND_VENUES_FOR_KEY) {
      throw new ConflictError(
        'insufficient_bound_venues',
        `bind at least ${MIN_BOUND_VENUES_FOR_KEY} venues before creating an API key (bound: ${bound.map((b) => b.venue).join(', ') || 'none'})`,
      )
    }
    await useNonce(tx, owner, p.authorization.nonce, 'create_api_key', now)
    await tx.apiKeys.insert(record)
  })
  return { ...apiKeyView(record), apiKey: minted.token }
}

/** Lists a wallet's keys (never their secrets) for a `list_api_keys` read. */
export async function listApiKeys(
  deps: ApiKeyDeps,
  p: WalletRead,
): Promise<{ keys: ApiKeyView[] }> {
  const owner = await verifyWalletRead({
    ...p,
    domain: deps.authDomain,
    action: 'list_api_keys',
    nowMs: deps.clock.now(),
  })
  const keys = await deps.store.apiKeys.listByOwner(owner, deps.env)
  return { keys: keys.map(apiKeyView) }
}

/** Revokes a key at once; the next request with it gets 401. */
export async function revokeApiKey(
  deps: ApiKeyDeps,
  keyId: string,
  p: { owner: string; authorization: WalletAuthorization },
): Promise<ApiKeyView> {
  const owner = p.owner.toLowerCase()
  await verifyWalletSignature({
    domain: deps.authDomain,
    action: 'revoke_api_key',
    owner,
    payload: {
      owner,
      keyId,
      nonce: p.authorization.nonce,
      expiresAt: p.authorization.expiresAt,
    },
    signature: p.authorization.signature,
    expiresAt: p.authorization.expiresAt,
    nowMs: deps.clock.now(),
  })
  const now = msToIso(deps.clock.now())
  return deps.store.transaction(async (tx) => {
    const key = await tx.apiKeys.get(keyId)
    if (!key || key.owner !== owner || key.env !== deps.env) {
      throw new NotFoundError('api_key_not_found', `API key ${keyId} not found`)
    }
    await useNonce(tx, owner, p.authorization.nonce, 'revoke_api_key', now)
    if (key.revokedAt !== null || !(await tx.apiKeys.revoke(keyId, now))) {
      throw new ConflictError(
        'api_key_revoked',
        'this API key is already revoked',
      )
    }
    return apiKeyView({ ...key, revokedAt: now })
  })
}
