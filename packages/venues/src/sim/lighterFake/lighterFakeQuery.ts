import { LighterFakeError } from './lighterFakeError.js'

/**
 * Reading a GET's query the way the venue refuses a bad one: code 20001
 * `invalid param: <name>` [unverified: the code; the venue's word for a
 * malformed parameter was not found in any source read].
 *
 * @module
 */

export type Query = URLSearchParams

const INVALID_PARAM = 20001

export const invalidParam = (name: string) =>
  new LighterFakeError(INVALID_PARAM, `invalid param: ${name}`)

/** A required non-negative integer parameter. */
export function int(q: Query, name: string): number {
  const v = q.get(name)
  const n = v !== null && /^\d+$/.test(v) ? Number(v) : Number.NaN
  if (!Number.isSafeInteger(n)) throw invalidParam(name)
  return n
}

/** An optional integer parameter (a sign allowed): `fallback` when absent. */
export function optInt(q: Query, name: string, fallback: number): number {
  const v = q.get(name)
  if (v === null || v === '') return fallback
  const n = /^-?\d+$/.test(v) ? Number(v) : Number.NaN
  if (!Number.isSafeInteger(n)) throw invalidParam(name)
  return n
}

/** One of `allowed`, or `fallback` when absent. */
export function oneOf<T extends string>(
  q: Query,
  name: string,
  allowed: readonly T[],
  fallback?: T,
): T {
  const v = q.get(name)
  if ((v === null || v === '') && fallback !== undefined) return fallback
  if (!allowed.includes(v as T)) throw invalidParam(name)
  return v as T
}

/**
 * The market filter of a read: null for all (absent or 255, the spec's
 * default), else the market id.
 */
export function marketFilter(q: Query, name = 'market_id'): number | null {
  const id = optInt(q, name, 255)
  return id === 255 ? null : id
}

/** A required `limit` within the spec's bounds (`1..max`). */
export function limit(q: Query, max: number, name = 'limit'): number {
  const n = int(q, name)
  if (n < 1 || n > max) throw invalidParam(name)
  return n
}
