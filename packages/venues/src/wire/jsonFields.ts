import { dec, decString, VenueUnavailableError } from '@dn/core'

/**
 * Readers of venue JSON shared by the protocol adapters. A field of the
 * wrong shape is an answer an adapter cannot trust: callers turn `null`
 * into `unexpectedAnswer`, never into a guess.
 *
 * @module
 */

export type Json = Record<string, unknown>

export function isObj(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** A finite decimal string (or number) as a canonical decimal string. */
export function decField(v: unknown): string | null {
  if (typeof v !== 'string' && typeof v !== 'number') return null
  try {
    const d = dec(v)
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

/** A read whose answer is not what the venue documents. */
export function unexpectedAnswer(
  venue: string,
  what: string,
  raw: unknown,
): VenueUnavailableError {
  return new VenueUnavailableError(
    `${venue} ${what}: unexpected answer ${JSON.stringify(raw)?.slice(0, 200)}`,
  )
}
