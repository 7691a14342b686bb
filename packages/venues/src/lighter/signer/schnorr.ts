import { ecgfp5 } from './ecgfp5.js'
import { ecgfp5Scalar } from './ecgfp5Scalar.js'
import { poseidon2 } from './poseidon2.js'
import type { Fp5 } from './quinticExtension.js'

/**
 * Schnorr signatures over ECgFp5 with a Poseidon2 challenge, exactly as
 * poseidon_crypto `signature/schnorr` (what Lighter's servers verify):
 * `r = Encode(k G)`, `e = FromGfp5(H5(r || m))`, `s = k - e sk (mod n)`,
 * bytes `s (40 LE) || e (40 LE)`. The message `m` is already a hash (an
 * Fp5 element, e.g. a tx hash).
 *
 * @module
 */

/** A signature as the two scalars `s` and `e`, both reduced mod n. */
export interface SchnorrSignature {
  readonly s: bigint
  readonly e: bigint
}

/** `e = FromGfp5(H5(r0..r4, m0..m4))`. */
function challenge(r: Fp5, message: Fp5): bigint {
  return ecgfp5Scalar.fromFp5(
    poseidon2.hashToQuinticExtension([...r, ...message]),
  )
}

/** The public key `Encode(sk G)` of a secret scalar. */
function publicKey(secretKey: bigint): Fp5 {
  return ecgfp5.encode(ecgfp5.mulGenerator(ecgfp5Scalar.reduce(secretKey)))
}

/**
 * Signs a hashed message. Like upstream, the nonce `k` is fresh uniform
 * randomness from the CSPRNG for every signature, so signatures of the same
 * message differ. `nonce` exists only to reproduce fixed-k test vectors:
 * reusing or biasing it leaks the secret key.
 *
 * @param message - the hashed message (e.g. a tx hash) as an Fp5 element.
 * @param secretKey - the private scalar.
 * @param nonce - test-only fixed `k`; defaults to a fresh random scalar.
 */
function sign(
  message: Fp5,
  secretKey: bigint,
  nonce: bigint = ecgfp5Scalar.random(),
): SchnorrSignature {
  const k = ecgfp5Scalar.reduce(nonce)
  const r = ecgfp5.encode(ecgfp5.mulGenerator(k))
  const e = challenge(r, message)
  const s = ecgfp5Scalar.sub(k, ecgfp5Scalar.mul(e, secretKey))
  return { s, e }
}

/**
 * Checks `FromGfp5(H5(Encode(s G + e PK) || m)) == e`. A public key that
 * does not decode to a group element, or scalars not below n, fail.
 */
function verify(
  publicKey: Fp5,
  message: Fp5,
  signature: SchnorrSignature,
): boolean {
  const { s, e } = signature
  if (s < 0n || e < 0n || s >= ecgfp5Scalar.N || e >= ecgfp5Scalar.N) {
    return false
  }
  const pk = ecgfp5.decode(publicKey)
  if (pk === null) return false
  const rv = ecgfp5.add(ecgfp5.mulGenerator(s), ecgfp5.mul(pk, e))
  return challenge(ecgfp5.encode(rv), message) === e
}

/** 80 bytes: `s` then `e`, each 40 bytes little-endian. */
function toBytes(signature: SchnorrSignature): Uint8Array {
  const out = new Uint8Array(80)
  out.set(ecgfp5Scalar.toBytes(signature.s), 0)
  out.set(ecgfp5Scalar.toBytes(signature.e), 40)
  return out
}

/**
 * Parses 80 signature bytes. Scalars at or above n are reduced, as the
 * upstream verifier does since poseidon_crypto 315971c.
 */
function fromBytes(bytes: Uint8Array): SchnorrSignature {
  if (bytes.length !== 80) {
    throw new RangeError(`a signature is 80 bytes, got ${bytes.length}`)
  }
  return {
    s: ecgfp5Scalar.fromBytes(bytes.subarray(0, 40)),
    e: ecgfp5Scalar.fromBytes(bytes.subarray(40, 80)),
  }
}

/**
 * Lighter's ECgFp5 Schnorr scheme: keys, signing, verification, bytes.
 *
 * @example
 * const sig = schnorr.sign(txHash, secretKey)
 * schnorr.verify(schnorr.publicKey(secretKey), txHash, sig) // true
 */
export const schnorr = Object.freeze({
  publicKey,
  sign,
  verify,
  toBytes,
  fromBytes,
})
