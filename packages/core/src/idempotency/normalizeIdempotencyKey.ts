import { ValidationError } from '../errors/domain.js'

const KEY = /^[!-~]{1,128}$/

/**
 * Validates the Idempotency-Key header. The IETF draft sends it as a
 * structured-field string (`"abc"`), Stripe-style clients send it bare; both
 * name the same key.
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
  const unquoted =
    header.length >= 2 && header.startsWith('"') && header.endsWith('"')
      ? header.slice(1, -1)
      : header
  if (!KEY.test(unquoted)) {
    throw new ValidationError(
      'Idempotency-Key must be 1..128 printable ASCII characters without spaces',
      [],
      'invalid_idempotency_key',
    )
  }
  return unquoted
}
