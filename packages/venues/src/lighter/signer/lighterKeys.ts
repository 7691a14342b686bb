import { ecgfp5Scalar } from './ecgfp5Scalar.js'
import { type Fp5, quinticExtension } from './quinticExtension.js'
import { schnorr } from './schnorr.js'

/**
 * Lighter API keys: a private key is a 40-byte little-endian ECgFp5 scalar,
 * its public key the 40-byte encoding of `sk * G`; both travel as `0x` +
 * 80 lowercase hex digits (lighter-go `GenerateAPIKey`). Lighter's
 * `apikeys` endpoint lists public keys without the `0x`.
 *
 * @module
 */

/** A Lighter API key pair, each as `0x` + 80 lowercase hex digits. */
export interface LighterKeys {
  readonly privateKey: string
  readonly publicKey: string
}

const KEY_HEX = /^(?:0x)?([0-9a-fA-F]{80})$/

function toHex(bytes: Uint8Array): string {
  return `0x${Buffer.from(bytes).toString('hex')}`
}

/**
 * Generates a fresh API key pair. The scalar is drawn uniformly from
 * `[1, n)` by rejection sampling over node:crypto bytes, never by reducing
 * a wider random number (which would be slightly biased).
 *
 * @returns `{ privateKey, publicKey }`, each `0x` + 80 hex digits.
 * @example
 * const { privateKey, publicKey } = generateLighterKeyPair()
 */
export function generateLighterKeyPair(): LighterKeys {
  const sk = ecgfp5Scalar.random()
  return {
    privateKey: toHex(ecgfp5Scalar.toBytes(sk)),
    publicKey: toHex(quinticExtension.toBytes(schnorr.publicKey(sk))),
  }
}

/**
 * Parses a private key (`0x` optional, 80 hex digits, little-endian).
 * Values at or above the group order are reduced, as lighter-go's
 * `NewKeyManager` does; a key that reduces to zero is refused.
 *
 * @throws {RangeError} on a malformed or zero key.
 */
export function parseLighterPrivateKey(privateKeyHex: string): bigint {
  const m = KEY_HEX.exec(privateKeyHex)
  if (!m?.[1]) {
    throw new RangeError('a Lighter private key is 40 bytes: 0x + 80 hex')
  }
  const sk = ecgfp5Scalar.fromBytes(Buffer.from(m[1], 'hex'))
  if (sk === 0n) throw new RangeError('a Lighter private key must not be 0')
  return sk
}

/**
 * Parses a public key (`0x` optional, 80 hex digits) into its Fp5 element.
 *
 * @throws {RangeError} on a malformed key.
 */
export function parseLighterPublicKey(publicKeyHex: string): Fp5 {
  const m = KEY_HEX.exec(publicKeyHex)
  if (!m?.[1]) {
    throw new RangeError('a Lighter public key is 40 bytes: 0x + 80 hex')
  }
  return quinticExtension.fromBytes(Buffer.from(m[1], 'hex'))
}

/**
 * The public key of a private key.
 *
 * @param privateKeyHex - `0x` optional, 80 hex digits.
 * @returns `0x` + 80 lowercase hex digits.
 * @throws {RangeError} on a malformed or zero key.
 * @example
 * lighterPublicKey(generateLighterKeyPair().privateKey)
 */
export function lighterPublicKey(privateKeyHex: string): string {
  const sk = parseLighterPrivateKey(privateKeyHex)
  return toHex(quinticExtension.toBytes(schnorr.publicKey(sk)))
}
