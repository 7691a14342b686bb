import { dec, decString, type VenueUnavailableError } from '@dn/core'
import {
  decField as decimal,
  intField,
  isObj,
  type Json,
  unexpectedAnswer,
} from '../../wire/jsonFields.js'

export { intField, isObj, type Json }

export function badAnswer(what: string, raw: unknown): VenueUnavailableError {
  return unexpectedAnswer('lighter', what, raw)
}

/**
 * A decimal string or number as a canonical decimal string, else null;
 * Lighter prints some fractions with a trailing `%`
 */
export function decField(v: unknown): string | null {
  return decimal(typeof v === 'string' ? v.replace(/%$/, '') : v)
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
function _scaleFromInteger(value: number, decimals: number): string {
  return decString(dec(value).div(dec(10).pow(decimals)))
}
