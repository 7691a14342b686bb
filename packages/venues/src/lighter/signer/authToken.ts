import { goldilocks } from './goldilocks.js'
import { parseLighterPrivateKey, parseLighterPublicKey } from './lighterKeys.js'
import { poseidon2 } from './poseidon2.js'
import type { Fp5 } from './quinticExtension.js'
import { type SchnorrSignature, schnorr } from './schnorr.js'
import { txInteger } from './txInteger.js'

/**
 * Lighter auth tokens for authenticated reads (lighter-go
 * `types/tx_request.go ConstructAuthToken`): the message
 * `<deadline_s>:<accountIndex>:<apiKeyIndex>`, hashed as 8-byte
 * little-endian words (last zero-padded) with Poseidon2 and signed with
 * the API key; the token is `message:hex(s || e)` without `0x`.
 *
 * @module
 */

/** Lighter refuses deadlines more than 8 h ahead (lighter-go README). */
export const LIGHTER_AUTH_MAX_TTL_S = 8 * 3600

interface LighterAuthTokenParameters {
  /** Unix seconds the token stops being valid */
  readonly deadline: number
  readonly accountIndex: number
  readonly apiKeyIndex: number
  readonly privateKey: string
  /** test-only fixed Schnorr nonce */
  readonly nonceK?: bigint | undefined
}

interface ParsedLighterAuthToken {
  readonly deadline: number
  readonly accountIndex: number
  readonly apiKeyIndex: number
  readonly message: string
  readonly signature: SchnorrSignature
}

/** The Poseidon2 hash an auth token's signature covers. */
export function authMessageHash(message: string): Fp5 {
  const bytes = Buffer.from(message, 'utf8')
  const words: bigint[] = []
  for (let i = 0; i < bytes.length; i += 8) {
    const word = Buffer.alloc(8)
    bytes.copy(word, 0, i, Math.min(i + 8, bytes.length))
    words.push(goldilocks.fromInteger(word.readBigUInt64LE(0)))
  }
  return poseidon2.hashToQuinticExtension(words)
}

/**
 * Creates an auth token.
 *
 * @returns `<deadline>:<account>:<key>:<160 hex>`.
 * @throws {RangeError} on a malformed key or field.
 * @example
 * createLighterAuthToken({ deadline: nowS + 600, accountIndex: 1,
 *   apiKeyIndex: 5, privateKey })
 */
export function createLighterAuthToken(
  params: LighterAuthTokenParameters,
): string {
  const sk = parseLighterPrivateKey(params.privateKey)
  const message = [
    txInteger('deadline', params.deadline, 0, 2 ** 40),
    txInteger('accountIndex', params.accountIndex, 0, 2 ** 48 - 2),
    txInteger('apiKeyIndex', params.apiKeyIndex, 0, 254),
  ].join(':')
  const sig = schnorr.sign(authMessageHash(message), sk, params.nonceK)
  return `${message}:${Buffer.from(schnorr.toBytes(sig)).toString('hex')}`
}

const TOKEN = /^(\d{1,13}):(\d{1,16}):(\d{1,3}):([0-9a-f]{160})$/

/** Splits a token into its fields; null when it is not one. */
export function parseLighterAuthToken(
  token: string,
): ParsedLighterAuthToken | null {
  const m = TOKEN.exec(token)
  if (!m?.[1] || !m[2] || !m[3] || !m[4]) return null
  return {
    deadline: Number(m[1]),
    accountIndex: Number(m[2]),
    apiKeyIndex: Number(m[3]),
    message: `${m[1]}:${m[2]}:${m[3]}`,
    signature: schnorr.fromBytes(Buffer.from(m[4], 'hex')),
  }
}

/** True when the token's signature verifies against `publicKeyHex`. */
export function verifyLighterAuthToken(
  token: ParsedLighterAuthToken,
  publicKeyHex: string,
): boolean {
  return schnorr.verify(
    parseLighterPublicKey(publicKeyHex),
    authMessageHash(token.message),
    token.signature,
  )
}
