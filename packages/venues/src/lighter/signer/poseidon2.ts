import { goldilocks } from './goldilocks.js'
import { poseidon2Constants as C } from './poseidon2Constants.js'
import type { Fp5 } from './quinticExtension.js'

/**
 * Poseidon2 over Goldilocks as Lighter uses it (poseidon_crypto
 * `poseidon2_goldilocks_plonky2`): width 12, rate 8, S-box `x^7`, and the
 * plonky2-style sponge without padding. Tx hashes are
 * `hashToQuinticExtension(fields)`.
 *
 * @module
 */

const P = goldilocks.P
const WIDTH = C.width
const RATE = C.rate

function sbox(x: bigint): bigint {
  const x2 = (x * x) % P
  const x3 = (x2 * x) % P
  const x6 = (x3 * x3) % P
  return (x6 * x) % P
}

/**
 * The external (full-round) linear layer: a 4x4 MDS block applied to each
 * group of four lanes, then each lane gets the sum of its column across the
 * three groups. Sums stay unreduced until the end; BigInt cannot overflow.
 */
function externalLayer(s: bigint[]): void {
  for (let i = 0; i < WIDTH; i += 4) {
    const a = s[i] ?? 0n
    const b = s[i + 1] ?? 0n
    const c = s[i + 2] ?? 0n
    const d = s[i + 3] ?? 0n
    const t01 = a + b
    const t23 = c + d
    const t = t01 + t23
    s[i] = t + t01 + b
    s[i + 1] = t + b + 2n * c
    s[i + 2] = t + t23 + d
    s[i + 3] = t + d + 2n * a
  }
  const sums = [0, 1, 2, 3].map(
    (k) => (s[k] ?? 0n) + (s[k + 4] ?? 0n) + (s[k + 8] ?? 0n),
  )
  for (let i = 0; i < WIDTH; i++) {
    s[i] = ((s[i] ?? 0n) + (sums[i % 4] ?? 0n)) % P
  }
}

/** The internal (partial-round) layer: `lane_i = lane_i * diag_i + sum`. */
function internalLayer(s: bigint[]): void {
  let sum = 0n
  for (let i = 0; i < WIDTH; i++) sum += s[i] ?? 0n
  for (let i = 0; i < WIDTH; i++) {
    s[i] = ((s[i] ?? 0n) * (C.matrixDiag[i] ?? 0n) + sum) % P
  }
}

function fullRounds(s: bigint[], start: number): void {
  for (let r = start; r < start + C.fullRoundsHalf; r++) {
    const rc = C.external[r] ?? []
    for (let i = 0; i < WIDTH; i++) {
      s[i] = sbox(((s[i] ?? 0n) + (rc[i] ?? 0n)) % P)
    }
    externalLayer(s)
  }
}

function partialRounds(s: bigint[]): void {
  for (let r = 0; r < C.partialRounds; r++) {
    s[0] = sbox(((s[0] ?? 0n) + (C.internal[r] ?? 0n)) % P)
    internalLayer(s)
  }
}

/**
 * The Poseidon2 permutation on 12 lanes (returns a new array).
 *
 * @param state - 12 field elements (reduced mod p on the way in).
 */
function permute(state: readonly bigint[]): bigint[] {
  if (state.length !== WIDTH) {
    throw new RangeError(`Poseidon2 state must have ${WIDTH} lanes`)
  }
  const s = state.map((x) => goldilocks.reduce(x))
  permuteInPlace(s)
  return s
}

function permuteInPlace(s: bigint[]): void {
  externalLayer(s)
  fullRounds(s, 0)
  partialRounds(s)
  fullRounds(s, C.fullRoundsHalf)
}

/**
 * Plonky2's `hash_n_to_m_no_pad`: absorb chunks of up to 8 inputs by
 * overwriting the leading lanes (a short last chunk leaves the other lanes
 * as they were; no padding, no length), then squeeze `m` outputs.
 */
function hashNToMNoPad(inputs: readonly bigint[], m: number): bigint[] {
  const s: bigint[] = new Array<bigint>(WIDTH).fill(0n)
  for (let i = 0; i < inputs.length; i += RATE) {
    for (let j = 0; j < RATE && i + j < inputs.length; j++) {
      s[j] = goldilocks.reduce(inputs[i + j] ?? 0n)
    }
    permuteInPlace(s)
  }
  const out: bigint[] = []
  for (;;) {
    for (let i = 0; i < RATE; i++) {
      out.push(s[i] ?? 0n)
      if (out.length === m) return out
    }
    permuteInPlace(s)
  }
}

/** `HashToQuinticExtension`: the first five sponge outputs as an Fp5. */
function hashToQuinticExtension(inputs: readonly bigint[]): Fp5 {
  const [a = 0n, b = 0n, c = 0n, d = 0n, e = 0n] = hashNToMNoPad(inputs, 5)
  return [a, b, c, d, e]
}

/** `HashNoPad`: the first four sponge outputs (a plonky2 `HashOut`). */
function hashNoPad(inputs: readonly bigint[]): bigint[] {
  return hashNToMNoPad(inputs, 4)
}

/**
 * Lighter's Poseidon2 permutation and sponge hashes over Goldilocks.
 *
 * @example
 * const h = poseidon2.hashToQuinticExtension([304n, 8n, 0n])
 */
export const poseidon2 = Object.freeze({
  permute,
  hashNToMNoPad,
  hashToQuinticExtension,
  hashNoPad,
})
