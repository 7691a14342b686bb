import { randomBytes } from 'node:crypto'
import type { Fp5 } from './quinticExtension.js'

/**
 * Scalars of the ECgFp5 group: integers mod the prime group order `n`
 * (about 2^319), serialised as 40 little-endian bytes (five u64 limbs).
 * Lighter private keys and Schnorr `s`/`e` values are such scalars.
 *
 * @module
 */

const N =
  1067993516717146951041484916571792702745057740581727230159139685185762082554198619328292418486241n

function reduce(a: bigint): bigint {
  const r = a % N
  return r < 0n ? r + N : r
}

function add(a: bigint, b: bigint): bigint {
  return reduce(a + b)
}

function sub(a: bigint, b: bigint): bigint {
  return reduce(a - b)
}

function mul(a: bigint, b: bigint): bigint {
  return reduce(a * b)
}

/** Little-endian integer of any byte string. */
function leToBigint(bytes: Uint8Array): bigint {
  let v = 0n
  for (let i = bytes.length - 1; i >= 0; i--) {
    v = (v << 8n) | BigInt(bytes[i] ?? 0)
  }
  return v
}

/**
 * Reads a 40-byte little-endian scalar, reducing it mod n like upstream
 * `ScalarElementFromLittleEndianBytes` does for values at or above n.
 */
function fromBytes(bytes: Uint8Array): bigint {
  if (bytes.length !== 40) {
    throw new RangeError(`a scalar is 40 bytes, got ${bytes.length}`)
  }
  return reduce(leToBigint(bytes))
}

/** 40 little-endian bytes of a reduced scalar. */
function toBytes(a: bigint): Uint8Array {
  const out = new Uint8Array(40)
  let v = reduce(a)
  for (let i = 0; i < 40; i++) {
    out[i] = Number(v & 0xffn)
    v >>= 8n
  }
  return out
}

/** Scalar from five u64 limbs, least significant first (test vectors). */
function fromLimbs(limbs: readonly (bigint | string | number)[]): bigint {
  let v = 0n
  for (let i = limbs.length - 1; i >= 0; i--) {
    v = (v << 64n) | BigInt(limbs[i] ?? 0)
  }
  return reduce(v)
}

/**
 * `FromGfp5`: the five canonical limbs read as one 320-bit little-endian
 * integer, reduced mod n. This turns a Poseidon2 digest into a challenge.
 */
function fromFp5(e: Fp5): bigint {
  return fromLimbs(e)
}

/**
 * A uniformly random non-zero scalar from the OS CSPRNG. Rejection sampling
 * over 319-bit candidates keeps it exactly uniform; since n is just below
 * 2^319, a candidate is rejected with probability about 2^-30.
 */
function random(): bigint {
  for (;;) {
    const bytes = randomBytes(40)
    bytes[39] = (bytes[39] ?? 0) & 0x7f
    const v = leToBigint(bytes)
    if (v !== 0n && v < N) return v
  }
}

/**
 * Arithmetic and encoding of ECgFp5 scalars (integers mod the group order).
 *
 * @example
 * const sk = ecgfp5Scalar.random()
 * ecgfp5Scalar.fromBytes(ecgfp5Scalar.toBytes(sk)) === sk // true
 */
export const ecgfp5Scalar = Object.freeze({
  N,
  reduce,
  add,
  sub,
  mul,
  fromBytes,
  toBytes,
  fromLimbs,
  fromFp5,
  random,
})
