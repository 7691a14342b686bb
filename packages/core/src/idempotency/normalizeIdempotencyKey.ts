import { ValidationError } from '../errors/domain.js'

const KEY = /^[!-~]{1,128}$/

/**
 * Validates the Idempotency-Key header against the contract (1..128
 * printable ASCII characters without spaces). The value is taken literally:
 * quotes are characters of the key, as the contract's pattern allows them.
 */
export function normalizeIdempotencyKey(
  header: string | string[] | undefined,
): string {
  if (header === undefined) {
    throw new ValidationError(
      'Idempotency-Key header is required on this route; send a unique value per command and reuse it on retries',
      [],
      'idempotency_key_required',
    )
  }
  if (Array.isArray(header)) {
    throw new ValidationError(
      'send exactly one Idempotency-Key header',
      [],
      'invalid_idempotency_key',
    )
  }
  if (!KEY.test(header)) {
    throw new ValidationError(
      'Idempotency-Key must be 1..128 printable ASCII characters without spaces',
      [],
      'invalid_idempotency_key',
    )
  }
  return header
}
