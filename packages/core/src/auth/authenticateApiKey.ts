import type { ApiKeyRecord } from '../domain/apiKey.js'
import { UnauthorizedError } from '../errors/domain.js'
import type { ApiKeyLookup } from './apiKeyCache.js'
import { digestsEqual, hashApiKeySecret, parseApiKey } from './apiKeyToken.js'

export interface AuthenticateApiKeyDeps {
  /** the store's `apiKeys`, or a cache of them ({@link createApiKeyCache}) */
  readonly keys: ApiKeyLookup
  readonly env: string
  readonly pepper: Buffer
}

const DUMMY_HASH = '0'.repeat(64)

/**
 * Resolves a Bearer header to its key. Every failure (missing, malformed,
 * other environment, unknown, wrong secret, revoked) is the same 401, and
 * an unknown id still costs one HMAC so timing does not tell them apart.
 */
export async function authenticateApiKey(
  deps: AuthenticateApiKeyDeps,
  authorization: string | undefined,
): Promise<ApiKeyRecord> {
  const m = /^Bearer ([^\s]+)$/.exec(authorization ?? '')
  const parsed = m?.[1] ? parseApiKey(m[1]) : undefined
  if (!parsed) throw new UnauthorizedError()
  const record =
    parsed.env === deps.env ? await deps.keys.get(parsed.keyId) : undefined
  const hash = hashApiKeySecret(deps.pepper, parsed.secret)
  const ok = digestsEqual(hash, record?.secretHash ?? DUMMY_HASH)
  if (!record || !ok || record.revokedAt !== null) throw new UnauthorizedError()
  return record
}
