import { goldilocks } from './goldilocks.js'
import { type Fp5, quinticExtension as f } from './quinticExtension.js'

/**
 * The ECgFp5 group (Pornin, as in poseidon_crypto `curve/ecgfp5`): the
 * curve `y^2 = x (x^2 + a x + b)` over Fp5 with `a = 2`, `b = 263 X`, whose
 * group has prime order n. Points use the fractional `(x, u) = (X/Z, U/T)`
 * coordinates with `u = x / y`, for which complete formulas exist, so no
 * special cases (neutral, equal points) are needed anywhere.
 *
 * @module
 */

/** A group element in `(X : Z, U : T)` fractional coordinates. */
export interface EcPoint {
  readonly x: Fp5
  readonly z: Fp5
  readonly u: Fp5
  readonly t: Fp5
}

const P = goldilocks.P
const A: Fp5 = [2n, 0n, 0n, 0n, 0n]
const B1 = 263n
const B: Fp5 = [0n, B1, 0n, 0n, 0n]
const FOUR: Fp5 = [4n, 0n, 0n, 0n, 0n]
const TWO_INV: Fp5 = [goldilocks.inverse(2n), 0n, 0n, 0n, 0n]

const NEUTRAL: EcPoint = { x: f.ZERO, z: f.ONE, u: f.ZERO, t: f.ONE }

const GENERATOR: EcPoint = {
  x: [
    12883135586176881569n,
    4356519642755055268n,
    5248930565894896907n,
    2165973894480315022n,
    2448410071095648785n,
  ],
  z: f.ONE,
  u: f.ONE,
  t: [4n, 0n, 0n, 0n, 0n],
}

/** Multiplication by `b = 263 X`: a shift of limbs (X^5 = 3) and a scale. */
function mulB(a: Fp5): Fp5 {
  return [
    (3n * B1 * a[4]) % P,
    (B1 * a[0]) % P,
    (B1 * a[1]) % P,
    (B1 * a[2]) % P,
    (B1 * a[3]) % P,
  ]
}

/** Complete addition (10M), the group law `P + Q + N` of the curve. */
function add(p: EcPoint, q: EcPoint): EcPoint {
  const t1 = f.mul(p.x, q.x)
  const t2 = f.mul(p.z, q.z)
  const t3 = f.mul(p.u, q.u)
  const t4 = f.mul(p.t, q.t)
  const t5 = f.sub(f.mul(f.add(p.x, p.z), f.add(q.x, q.z)), f.add(t1, t2))
  const t6 = f.sub(f.mul(f.add(p.u, p.t), f.add(q.u, q.t)), f.add(t3, t4))
  const t7 = f.add(t1, mulB(t2))
  const t8 = f.mul(t4, t7)
  const t9 = f.mul(t3, f.add(f.double(mulB(t5)), f.double(t7)))
  const t10 = f.mul(f.add(t4, f.double(t3)), f.add(t5, t7))
  return {
    x: mulB(f.sub(t10, t8)),
    z: f.sub(t8, t9),
    u: f.mul(t6, f.sub(mulB(t2), t1)),
    t: f.add(t8, t9),
  }
}

/** Doubling (4M + 5S). */
function double(p: EcPoint): EcPoint {
  const t1 = f.mul(p.z, p.t)
  const t2 = f.mul(t1, p.t)
  const x1 = f.square(t2)
  const z1 = f.mul(t1, p.u)
  const t3 = f.square(p.u)
  const w1 = f.sub(t2, f.mul(t3, f.double(f.add(p.x, p.z))))
  const t4 = f.square(z1)
  const z = f.square(w1)
  return {
    x: f.mul(t4, f.scale(B, 4n)),
    z,
    u: f.sub(f.square(f.add(w1, z1)), f.add(t4, z)),
    t: f.sub(f.double(x1), f.add(f.mul(t4, FOUR), z)),
  }
}

/** `-P`: the u coordinate changes sign. */
function neg(p: EcPoint): EcPoint {
  return { x: p.x, z: p.z, u: f.neg(p.u), t: p.t }
}

function isNeutral(p: EcPoint): boolean {
  return f.isZero(p.u)
}

/** Points are equal exactly when their u coordinates are. */
function equals(p: EcPoint, q: EcPoint): boolean {
  return f.equals(f.mul(p.u, q.t), f.mul(q.u, p.t))
}

/** The 4-bit digits of a scalar, least significant first (80 of them). */
function nibbles(k: bigint): number[] {
  const out: number[] = []
  let v = k
  for (let i = 0; i < 80; i++) {
    out.push(Number(v & 0xfn))
    v >>= 4n
  }
  return out
}

/**
 * `k * P` with a fixed 4-bit window: 320 doublings and 80 additions. The
 * caller passes k already reduced mod n (any non-negative k < 2^320 works).
 */
function mul(p: EcPoint, k: bigint): EcPoint {
  const table: EcPoint[] = [NEUTRAL, p]
  for (let d = 2; d < 16; d++) table.push(add(table[d - 1] ?? NEUTRAL, p))
  const digits = nibbles(k)
  let r = NEUTRAL
  for (let i = 79; i >= 0; i--) {
    r = double(double(double(double(r))))
    r = add(r, table[digits[i] ?? 0] ?? NEUTRAL)
  }
  return r
}

// generatorTable[i][d] = d * 16^i * G. Built on first use (about 50 ms) so
// every later k * G costs only 80 additions instead of a full mul.
let generatorTable: EcPoint[][] | undefined

function buildGeneratorTable(): EcPoint[][] {
  const rows: EcPoint[][] = []
  let base = GENERATOR
  for (let i = 0; i < 80; i++) {
    const row: EcPoint[] = [NEUTRAL, base]
    for (let d = 2; d < 16; d++) row.push(add(row[d - 1] ?? NEUTRAL, base))
    rows.push(row)
    base = double(double(double(double(base))))
  }
  return rows
}

/** `k * G` for the fixed generator, via a lazily built table. */
function mulGenerator(k: bigint): EcPoint {
  generatorTable ??= buildGeneratorTable()
  const digits = nibbles(k)
  let r = NEUTRAL
  for (let i = 0; i < 80; i++) {
    const d = digits[i] ?? 0
    if (d !== 0) r = add(r, generatorTable[i]?.[d] ?? NEUTRAL)
  }
  return r
}

/** `Encode`: the Fp5 element `w = y / x = T / U` (0 for the neutral). */
function encode(p: EcPoint): Fp5 {
  return f.mul(p.t, f.inverse(p.u))
}

/**
 * `Decode`: the point whose encoding is `w`, or `null` when no point has
 * that encoding. From `w = y / x` the curve equation becomes
 * `x^2 - (w^2 - a) x + b = 0`; of its two roots the one that is not a
 * square is the group element (exactly one of them is a square).
 */
function decode(w: Fp5): EcPoint | null {
  if (f.isZero(w)) return NEUTRAL
  const e = f.sub(f.square(w), A)
  const delta = f.sub(f.square(e), f.scale(B, 4n))
  const r = f.sqrt(delta)
  if (r === null) return null
  const x1 = f.mul(f.add(e, r), TWO_INV)
  const x2 = f.mul(f.sub(e, r), TWO_INV)
  const x = f.legendre(x1) === 1 ? x2 : x1
  return { x, z: f.ONE, u: f.ONE, t: w }
}

/**
 * The ECgFp5 prime-order group used by Lighter's Schnorr signatures.
 *
 * @example
 * const pk = ecgfp5.encode(ecgfp5.mulGenerator(secretScalar))
 */
export const ecgfp5 = Object.freeze({
  A,
  B,
  NEUTRAL,
  GENERATOR,
  add,
  double,
  neg,
  isNeutral,
  equals,
  mul,
  mulGenerator,
  encode,
  decode,
})
