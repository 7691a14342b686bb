/**
 * The Goldilocks prime field `p = 2^64 - 2^32 + 1` that Lighter's Poseidon2
 * hash and ECgFp5 curve are built on. Elements are `bigint`s in `[0, p)`;
 * every function returns a canonical (fully reduced) value.
 *
 * @module
 */

const P = 0xffff_ffff_0000_0001n
const U64_MASK = 0xffff_ffff_ffff_ffffn

// p - 1 = 2^32 * (2^32 - 1); 7 generates the multiplicative group, so
// 7^(2^32 - 1) has order exactly 2^32 (used by Tonelli-Shanks below).
const TWO_ADICITY = 32
const ODD_PART = (P - 1n) >> 32n
const ROOT_OF_UNITY_2_32 = pow(7n, ODD_PART)

function reduce(a: bigint): bigint {
  const r = a % P
  return r < 0n ? r + P : r
}

function add(a: bigint, b: bigint): bigint {
  const s = a + b
  return s >= P ? s - P : s
}

function sub(a: bigint, b: bigint): bigint {
  const d = a - b
  return d < 0n ? d + P : d
}

function neg(a: bigint): bigint {
  return a === 0n ? 0n : P - a
}

function mul(a: bigint, b: bigint): bigint {
  return (a * b) % P
}

function pow(base: bigint, exponent: bigint): bigint {
  let result = 1n
  let b = reduce(base)
  let e = exponent
  while (e > 0n) {
    if (e & 1n) result = (result * b) % P
    b = (b * b) % P
    e >>= 1n
  }
  return result
}

/** Multiplicative inverse; 0 maps to 0 (upstream's `InverseOrZero`). */
function inverse(a: bigint): bigint {
  return a === 0n ? 0n : pow(a, P - 2n)
}

/** Legendre symbol as 1 (non-zero square), -1 (non-square) or 0. */
function legendre(a: bigint): -1 | 0 | 1 {
  if (a === 0n) return 0
  return pow(a, (P - 1n) / 2n) === 1n ? 1 : -1
}

/** A square root (either one) or `null` when `a` is not a square. */
function sqrt(a: bigint): bigint | null {
  if (a === 0n) return 0n
  if (legendre(a) !== 1) return null
  // Tonelli-Shanks over the 2^32-part of p - 1.
  let m = TWO_ADICITY
  let c = ROOT_OF_UNITY_2_32
  let t = pow(a, ODD_PART)
  let r = pow(a, (ODD_PART + 1n) / 2n)
  while (t !== 1n) {
    let i = 0
    let t2 = t
    while (t2 !== 1n) {
      t2 = (t2 * t2) % P
      i++
    }
    let b = c
    for (let j = 0; j < m - i - 1; j++) b = (b * b) % P
    m = i
    c = (b * b) % P
    t = (t * c) % P
    r = (r * b) % P
  }
  return r
}

/** Canonical 8-byte little-endian encoding. */
function toBytes(a: bigint): Uint8Array {
  const out = new Uint8Array(8)
  let v = reduce(a)
  for (let i = 0; i < 8; i++) {
    out[i] = Number(v & 0xffn)
    v >>= 8n
  }
  return out
}

/**
 * Reads 8 little-endian bytes at `offset` as a u64 and reduces it mod p.
 * Upstream keeps such words as non-canonical representatives of the same
 * element, so reducing here is value-preserving, not lossy.
 */
function fromBytes(bytes: Uint8Array, offset = 0): bigint {
  let v = 0n
  for (let i = 7; i >= 0; i--) v = (v << 8n) | BigInt(bytes[offset + i] ?? 0)
  return v % P
}

/**
 * Maps an integer the way Go's `GoldilocksField(int64(x))` does: negative
 * values wrap to their 64-bit two's complement first, then reduce mod p.
 */
function fromInteger(value: bigint | number): bigint {
  const v = BigInt(value)
  return (v & U64_MASK) % P
}

/**
 * Goldilocks field arithmetic (`p = 2^64 - 2^32 + 1`) on canonical `bigint`s.
 *
 * @example
 * goldilocks.mul(goldilocks.P - 1n, 2n) // p - 2
 */
export const goldilocks = Object.freeze({
  P,
  reduce,
  add,
  sub,
  neg,
  mul,
  pow,
  inverse,
  legendre,
  sqrt,
  toBytes,
  fromBytes,
  fromInteger,
})
