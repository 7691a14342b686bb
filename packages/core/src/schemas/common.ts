import * as v from 'valibot'
import { VENUES } from '../domain/venue.js'

/**
 * Building blocks shared by the request and response schemas. Each is a
 * `const` plus a same-named output type; the OpenAPI document turns the
 * named ones into `components.schemas` entries (`Venue`, `Uuid`, ...).
 */

/** Largest amount, price or size a request may carry (14 nines). */
export const MAX_AMOUNT = 99_999_999_999_999

/** Largest integer JSON numbers keep exactly (2^53 - 1). */
export const MAX_SAFE_INTEGER = 9_007_199_254_740_991

/** One of the four venue identifiers. */
export const VenueSchema = v.picklist(VENUES)
export type VenueSchema = v.InferOutput<typeof VenueSchema>

/** A lowercase, hyphenated uuid (the contract's path-parameter pattern). */
export const UuidSchema = v.pipe(
  v.string(),
  v.regex(
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    'must be a lowercase uuid',
  ),
  v.metadata({ format: 'uuid' }),
)
export type UuidSchema = v.InferOutput<typeof UuidSchema>

/** A 0x-prefixed 20-byte hex wallet address, either case. */
export const AddressSchema = v.pipe(
  v.string(),
  v.regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 40-hex-digit address'),
)
export type AddressSchema = v.InferOutput<typeof AddressSchema>

/** A 0x-prefixed 65-byte hex ECDSA signature (r, s, v). */
export const SignatureSchema = v.pipe(
  v.string(),
  v.regex(
    /^0x[0-9a-fA-F]{130}$/,
    'must be a 0x-prefixed 130-hex-digit signature',
  ),
)
export type SignatureSchema = v.InferOutput<typeof SignatureSchema>

/** The `Idempotency-Key` header: 1..128 printable non-space ASCII. */
export const IdempotencyKeySchema = v.pipe(
  v.string(),
  v.minLength(1),
  v.maxLength(128),
  v.regex(/^[!-~]+$/, 'must be printable ASCII without spaces'),
)
export type IdempotencyKeySchema = v.InferOutput<typeof IdempotencyKeySchema>

/** An ISO 8601 date-time string, as every response timestamp is written. */
export const DateTimeSchema = v.pipe(v.string(), v.isoTimestamp())
export type DateTimeSchema = v.InferOutput<typeof DateTimeSchema>

/** A decimal number written as a string in plain notation (no exponent). */
export const DecimalStringSchema = v.pipe(
  v.string(),
  v.regex(/^-?[0-9]+(\.[0-9]+)?$/, 'must be a decimal string'),
)
export type DecimalStringSchema = v.InferOutput<typeof DecimalStringSchema>

/** An exact listed venue symbol: 1..64 characters, no whitespace. */
export const MarketSchema = v.pipe(
  v.string(),
  v.minLength(1),
  v.maxLength(64),
  v.regex(/^\S+$/, 'must not contain whitespace'),
)
export type MarketSchema = v.InferOutput<typeof MarketSchema>

/** A positive request amount: > 0 and <= {@link MAX_AMOUNT}. */
export const PositiveAmountSchema = v.pipe(
  v.number(),
  v.gtValue(0),
  v.maxValue(MAX_AMOUNT),
)
export type PositiveAmountSchema = v.InferOutput<typeof PositiveAmountSchema>
