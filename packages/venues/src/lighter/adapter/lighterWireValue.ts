import { dec, decString, VenueUnavailableError } from '@dn/core'

/**
 * Small readers of Lighter's JSON: decimal strings, integers, objects.
 * A field of the wrong shape is an answer the adapter cannot trust, so it
 * fails VenueUnavailableError rather than guessing.
 *
 * @module
 */

export type Json = Record<string, unknown>

export function isObj(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

export function badAnswer(what: string, raw: unknown): VenueUnavailableError {
  return new VenueUnavailableError(
    `lighter ${what}: unexpected answer ${JSON.stringify(raw)?.slice(0, 200)}`,
  )
}

/** A decimal string or number as a canonical decimal string, else null. */
export function decField(v: unknown): string | null {
  if (typeof v !== 'string' && typeof v !== 'number') return null
  try {
    const d = dec(String(v).replace(/%$/, ''))
    return d.isFinite() ? decString(d) : null
  } catch {
    return null
  }
}

/** A safe integer field (numbers or digit strings), else null. */
export function intField(v: unknown): number | null {
  const n = typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v
  return typeof n === 'number' && Number.isSafeInteger(n) ? n : null
}

/** `value x 10^decimals` when that is an integer, else null. */
export function scaleToInteger(value: string, decimals: number): number | null {
  try {
    const d = dec(value).mul(dec(10).pow(decimals))
    return d.isInteger() && d.isFinite() ? d.toNumber() : null
  } catch {
    return null
  }
}

/** `value / 10^decimals` as a canonical decimal string. */
export function scaleFromInteger(value: number, decimals: number): string {
  return decString(dec(value).div(dec(10).pow(decimals)))
}
