import type { DnErrorCode } from '@dn/core'

/**
 * The error codes each group of routes answers with, as the contract groups
 * them (one status list per group). A route's documented error statuses are
 * the statuses of its codes; each status is described by its codes' entries
 * in the core code table.
 */

/** Every route may answer these: no such route, or an internal failure. */
const EDGE = [
  'route_not_found',
  'service_unavailable',
  'storage_error',
] as const

const BEARER = ['unauthorized', 'rate_limited'] as const

const JSON_BODY = [
  'invalid_json',
  'request_aborted',
  'payload_too_large',
  'unsupported_media_type',
] as const

const IDEMPOTENCY = [
  'idempotency_key_required',
  'invalid_idempotency_key',
  'idempotency_key_reused',
] as const

/** Any Bearer GET route (400, 401, 404, 429, 503). */
export const BEARER_READ_ERRORS = [
  ...EDGE,
  ...BEARER,
  'invalid_query',
] as const satisfies readonly DnErrorCode[]

/** The contract's Bearer GET routes (tasks, orders, request logs). */
export const KEY_READ_ERRORS = [
  ...BEARER_READ_ERRORS,
  'invalid_path_id',
  'invalid_cursor',
  'cursor_filter_mismatch',
  'task_not_found',
  'order_not_found',
] as const satisfies readonly DnErrorCode[]

/** Bearer POST routes (400, 401, 403, 404, 409, 413, 415, 429, 503). */
export const KEY_COMMAND_ERRORS = [
  ...EDGE,
  ...BEARER,
  ...JSON_BODY,
  ...IDEMPOTENCY,
  'invalid_body',
  'invalid_query',
  'invalid_path_id',
  'venue_not_granted',
  'venue_not_bound',
  'credential_unreadable',
  'owner_operation_in_progress',
  'market_data_unavailable',
] as const satisfies readonly DnErrorCode[]

/** The three venue-binding routes (contract: one list for all three). */
export const BINDING_ERRORS = [
  ...EDGE,
  ...JSON_BODY,
  'invalid_request',
  'invalid_wallet_headers',
  'invalid_path_id',
  'invalid_query',
  'idempotency_key_required',
  'invalid_idempotency_key',
  'authorization_expired',
  'authorization_expiry_too_far',
  'invalid_signature',
  'account_not_owned',
  'signature_mismatch',
  'binding_not_found',
  'method_not_allowed',
  'idempotency_key_reused',
  'nonce_conflict',
  'binding_busy',
  'duplicate_request_id',
  'unknown_request_id',
  'signature_already_accepted',
  'rebind_required',
  'rebind_blocked',
  'binding_expired',
  'prepare_rate_limited',
  'binding_unavailable',
  'venue_account_check_unavailable',
] as const satisfies readonly DnErrorCode[]

/** Wallet-signed API-key routes. */
export const WALLET_ERRORS = [
  'service_unavailable',
  'storage_error',
  'rate_limited',
  'invalid_query',
  'authorization_expired',
  'authorization_expiry_too_far',
  'invalid_signature',
] as const satisfies readonly DnErrorCode[]

export const WALLET_BODY_ERRORS = [
  ...WALLET_ERRORS,
  ...JSON_BODY,
  'invalid_body',
  'nonce_reused',
] as const satisfies readonly DnErrorCode[]
