import {
  createHmac,
  randomBytes,
  randomUUID,
  timingSafeEqual,
} from 'node:crypto'

const TOKEN =
  /^dn_([a-z0-9]{1,32})_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([A-Za-z0-9_-]{43})$/

export interface ParsedApiKey {
  readonly env: string
  readonly keyId: string
  readonly secret: string
}

/** Splits `dn_<env>_<uuid>.<secret>`; undefined when malformed. */
export function parseApiKey(token: string): ParsedApiKey | undefined {
  const m = TOKEN.exec(token)
  if (!m?.[1] || !m[2] || !m[3]) return undefined
  return { env: m[1], keyId: m[2], secret: m[3] }
}

/** Keyed hash of a secret: the only form a secret is ever stored in. */
export function hashApiKeySecret(pepper: Buffer, secret: string): string {
  return createHmac('sha256', pepper).update(secret).digest('hex')
}

/** Constant-time comparison of two hex digests of equal length. */
export function digestsEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex')
  const y = Buffer.from(b, 'hex')
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y)
}

/** A new key: 256 random bits of secret, shown once to its creator. */
export function mintApiKey(env: string): ParsedApiKey & { token: string } {
  const keyId = randomUUID()
  const secret = randomBytes(32).toString('base64url')
  return { env, keyId, secret, token: `dn_${env}_${keyId}.${secret}` }
}
