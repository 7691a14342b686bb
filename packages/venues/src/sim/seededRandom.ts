/** A draw in [0, 1); `state` is what to seed a copy that goes on from here. */
export interface SeededRandom {
  (): number
  readonly state: number
}

/**
 * A tiny seeded PRNG (mulberry32): 32 bits of state, uniform floats in
 * [0, 1). The simulator draws only integers from it (move sizes, fault
 * rolls); prices never pass through a float. `seededRandom(r.state)`
 * continues `r`'s sequence (a saved simulator resumes its walks).
 */
export function seededRandom(seed: number): SeededRandom {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
  return Object.defineProperty(next, 'state', { get: () => a }) as SeededRandom
}

/**
 * FNV-1a over the parts, so every market (and every funding hour) gets its
 * own stream from one user seed: adding a market never shifts another's
 * walk.
 * @internal
 */
export function hashSeed(...parts: readonly (string | number)[]): number {
  let h = 0x811c9dc5
  for (const ch of parts.join('|')) {
    h ^= ch.codePointAt(0) ?? 0
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h
}

/** An integer in [min, max] from a float in [0, 1). @internal */
export function randomInt(
  random: () => number,
  min: number,
  max: number,
): number {
  return min + Math.floor(random() * (max - min + 1))
}
