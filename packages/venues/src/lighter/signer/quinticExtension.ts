import { goldilocks } from './goldilocks.js'

/**
 * The degree-5 extension `Fp5 = Fp[X] / (X^5 - 3)` of the Goldilocks field
 * over which the ECgFp5 curve lives. Public keys, tx hashes and Schnorr
 * nonces' points are all elements of this field.
 *
 * @module
 */

/** `[a0, a1, a2, a3, a4]` = `a0 + a1 X + ... + a4 X^4`, each limb in `[0, p)`. */
export type Fp5 = readonly [bigint, bigint, bigint, bigint, bigint]

const P = goldilocks.P
const W = 3n
// X^p = OMEGA * X with OMEGA = W^((p - 1) / 5), a fifth root of unity.
const OMEGA = goldilocks.pow(W, (P - 1n) / 5n)
// r = 1 + p + p^2 + p^3 + p^4; x^r is the norm of x, an element of Fp.
const NORM_EXPONENT = 1n + P + P ** 2n + P ** 3n + P ** 4n
const HALF_NORM_MINUS_ONE = (NORM_EXPONENT - 1n) / 2n

const ZERO: Fp5 = [0n, 0n, 0n, 0n, 0n]
const ONE: Fp5 = [1n, 0n, 0n, 0n, 0n]

function fromLimbs(limbs: readonly (bigint | number | string)[]): Fp5 {
  const l = (i: number) => goldilocks.reduce(BigInt(limbs[i] ?? 0))
  return [l(0), l(1), l(2), l(3), l(4)]
}

function add(a: Fp5, b: Fp5): Fp5 {
  return [
    goldilocks.add(a[0], b[0]),
    goldilocks.add(a[1], b[1]),
    goldilocks.add(a[2], b[2]),
    goldilocks.add(a[3], b[3]),
    goldilocks.add(a[4], b[4]),
  ]
}

function sub(a: Fp5, b: Fp5): Fp5 {
  return [
    goldilocks.sub(a[0], b[0]),
    goldilocks.sub(a[1], b[1]),
    goldilocks.sub(a[2], b[2]),
    goldilocks.sub(a[3], b[3]),
    goldilocks.sub(a[4], b[4]),
  ]
}

function neg(a: Fp5): Fp5 {
  return [
    goldilocks.neg(a[0]),
    goldilocks.neg(a[1]),
    goldilocks.neg(a[2]),
    goldilocks.neg(a[3]),
    goldilocks.neg(a[4]),
  ]
}

function double(a: Fp5): Fp5 {
  return add(a, a)
}

function mul(a: Fp5, b: Fp5): Fp5 {
  const [a0, a1, a2, a3, a4] = a
  const [b0, b1, b2, b3, b4] = b
  // Schoolbook product with X^5 = 3 folded in; one reduction per limb
  // (BigInt sums never overflow, so lazy reduction is free and faster).
  return [
    (a0 * b0 + W * (a1 * b4 + a2 * b3 + a3 * b2 + a4 * b1)) % P,
    (a0 * b1 + a1 * b0 + W * (a2 * b4 + a3 * b3 + a4 * b2)) % P,
    (a0 * b2 + a1 * b1 + a2 * b0 + W * (a3 * b4 + a4 * b3)) % P,
    (a0 * b3 + a1 * b2 + a2 * b1 + a3 * b0 + W * a4 * b4) % P,
    (a0 * b4 + a1 * b3 + a2 * b2 + a3 * b1 + a4 * b0) % P,
  ]
}

function square(a: Fp5): Fp5 {
  return mul(a, a)
}

/** Multiplies every limb by a base-field element. */
function scale(a: Fp5, s: bigint): Fp5 {
  return [
    (a[0] * s) % P,
    (a[1] * s) % P,
    (a[2] * s) % P,
    (a[3] * s) % P,
    (a[4] * s) % P,
  ]
}

/** `x^(p^count)`: limb i is multiplied by `OMEGA^(i * count)`. */
function frobenius(a: Fp5, count = 1): Fp5 {
  const z = goldilocks.pow(OMEGA, BigInt(count % 5))
  let zi = 1n
  const out: bigint[] = []
  for (let i = 0; i < 5; i++) {
    out.push(((a[i] ?? 0n) * zi) % P)
    zi = (zi * z) % P
  }
  return fromLimbs(out)
}

function pow(a: Fp5, exponent: bigint): Fp5 {
  let result = ONE
  let b = a
  let e = exponent
  while (e > 0n) {
    if (e & 1n) result = mul(result, b)
    b = square(b)
    e >>= 1n
  }
  return result
}

function isZero(a: Fp5): boolean {
  return a[0] === 0n && a[1] === 0n && a[2] === 0n && a[3] === 0n && a[4] === 0n
}

function equals(a: Fp5, b: Fp5): boolean {
  return (
    a[0] === b[0] &&
    a[1] === b[1] &&
    a[2] === b[2] &&
    a[3] === b[3] &&
    a[4] === b[4]
  )
}

/** `a^(p + p^2 + p^3 + p^4)` via four Frobenius maps instead of a long pow. */
function normComplement(a: Fp5): Fp5 {
  const d = frobenius(a)
  const e = mul(d, frobenius(d))
  return mul(e, frobenius(e, 2))
}

/** The norm `a^(1 + p + ... + p^4)`, which always lies in the base field. */
function norm(a: Fp5): bigint {
  return mul(a, normComplement(a))[0]
}

/** Multiplicative inverse; 0 maps to 0 (upstream's `InverseOrZero`). */
function inverse(a: Fp5): Fp5 {
  if (isZero(a)) return ZERO
  const f = normComplement(a)
  return scale(f, goldilocks.inverse(mul(a, f)[0]))
}

/**
 * Legendre symbol in Fp5. The norm map sends squares to squares and, since
 * `1 + p + ... + p^4` is odd, non-squares to non-squares.
 */
function legendre(a: Fp5): -1 | 0 | 1 {
  return goldilocks.legendre(norm(a))
}

/**
 * A square root (sign unspecified) or `null`. With `e = a^((r - 1) / 2)` we
 * have `a * e^2 = a^r = norm(a)` in Fp, so `sqrt(a) = sqrt(norm(a)) / e`.
 */
function sqrt(a: Fp5): Fp5 | null {
  if (isZero(a)) return ZERO
  const e = pow(a, HALF_NORM_MINUS_ONE)
  const s = goldilocks.sqrt(mul(a, square(e))[0])
  if (s === null) return null
  return scale(inverse(e), s)
}

/** 40 bytes: five canonical 8-byte little-endian limbs. */
function toBytes(a: Fp5): Uint8Array {
  const out = new Uint8Array(40)
  for (let i = 0; i < 5; i++) out.set(goldilocks.toBytes(a[i] ?? 0n), i * 8)
  return out
}

/** Reads 40 little-endian bytes (limbs reduced mod p, as upstream). */
function fromBytes(bytes: Uint8Array): Fp5 {
  if (bytes.length !== 40) {
    throw new RangeError(`expected 40 bytes, got ${bytes.length}`)
  }
  const l = (i: number) => goldilocks.fromBytes(bytes, i * 8)
  return [l(0), l(1), l(2), l(3), l(4)]
}

/** Lowercase hex of `toBytes`, without `0x` (the form Lighter reports). */
function toHex(a: Fp5): string {
  return Buffer.from(toBytes(a)).toString('hex')
}

/**
 * Arithmetic in `Fp5 = Fp[X] / (X^5 - 3)` over Goldilocks.
 *
 * @example
 * const x = quinticExtension.fromLimbs([1, 2, 3, 4, 5])
 * quinticExtension.mul(x, quinticExtension.inverse(x)) // ONE
 */
export const quinticExtension = Object.freeze({
  ZERO,
  ONE,
  fromLimbs,
  add,
  sub,
  neg,
  double,
  mul,
  square,
  scale,
  frobenius,
  pow,
  isZero,
  equals,
  norm,
  inverse,
  legendre,
  sqrt,
  toBytes,
  fromBytes,
  toHex,
})
