import { createHash } from 'node:crypto'
import { canonicalJson } from '../util/canonicalJson.js'

/**
 * What makes two requests "the same" under one Idempotency-Key: method,
 * path and the canonical JSON of the body (so key order does not matter).
 */
export function requestFingerprint(
  method: string,
  path: string,
  body: unknown,
): string {
  return createHash('sha256')
    .update(`${method.toUpperCase()} ${path}\n${canonicalJson(body ?? null)}`)
    .digest('hex')
}
