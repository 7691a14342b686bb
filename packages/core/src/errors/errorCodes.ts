/**
 * Every error code the service answers with, its HTTP status and what it
 * means. This is the one list: `AppError` takes its status from here, the
 * OpenAPI document describes error responses from here, and the client's
 * `DnErrorCode` is checked against it (test/clientErrorCodes.test.ts).
 * Codes are wire values: never rename one; add a new code instead.
 */
export const ERROR_CODES = {
  // 400
  invalid_request: { status: 400, description: 'The request is invalid' },
  invalid_body: { status: 400, description: 'A JSON body field is invalid' },
  invalid_query: {
    status: 400,
    description: 'A query parameter is invalid, unknown or repeated',
  },
  invalid_path_id: {
    status: 400,
    description: 'A path id is not a lowercase uuid',
  },
  invalid_wallet_headers: {
    status: 400,
    description: 'A wallet authorization header is missing or invalid',
  },
  invalid_json: { status: 400, description: 'The body is not valid JSON' },
  invalid_cursor: { status: 400, description: 'The list cursor is not valid' },
  cursor_filter_mismatch: {
    status: 400,
    description: 'The cursor was issued for another status/updatedSince filter',
  },
  idempotency_key_required: {
    status: 400,
    description: 'The route needs an Idempotency-Key header',
  },
  invalid_idempotency_key: {
    status: 400,
    description: 'Idempotency-Key is not 1..128 printable ASCII characters',
  },
  request_aborted: {
    status: 400,
    description: 'The request body was cut off',
  },
  bad_request: {
    status: 400,
    description: 'Malformed HTTP (framing or header bytes)',
  },
  below_venue_minimum: {
    status: 400,
    description: 'The size is below USD 10 or a venue minimum',
  },
  invalid_tick: {
    status: 400,
    description: 'The limit price is off the venue tick',
  },
  market_not_listed: {
    status: 400,
    description: 'The venue does not list this market',
  },
  size_exceeds_key_limit: {
    status: 400,
    description: "The size exceeds the key's maxSizeUsd",
  },
  // 401
  unauthorized: {
    status: 401,
    description: 'Missing, invalid or revoked API key',
  },
  authorization_expired: {
    status: 401,
    description: 'The wallet authorization has expired',
  },
  authorization_expiry_too_far: {
    status: 401,
    description: 'The wallet authorization expires more than 300 s ahead',
  },
  invalid_signature: {
    status: 401,
    description: 'The wallet signature is invalid or not the owner',
  },
  // 403
  venue_not_granted: {
    status: 403,
    description: 'The key does not grant the required venues',
  },
  account_not_owned: {
    status: 403,
    description: 'The venue account is not owned by the wallet',
  },
  signature_mismatch: {
    status: 403,
    description: 'A venue signature does not recover to the batch owner',
  },
  // 404
  route_not_found: { status: 404, description: 'No such route' },
  task_not_found: {
    status: 404,
    description: 'Task not found or not visible to the key',
  },
  order_not_found: {
    status: 404,
    description: 'Order not found or not visible to the key',
  },
  api_key_not_found: {
    status: 404,
    description: 'API key not found or not owned by the wallet',
  },
  binding_not_found: {
    status: 404,
    description: 'Binding not found or not owned by the wallet',
  },
  // 405
  method_not_allowed: {
    status: 405,
    description: 'Unsupported method on this route',
  },
  // 408
  request_timeout: {
    status: 408,
    description: 'The request was not received in time',
  },
  // 409
  idempotency_key_reused: {
    status: 409,
    description: 'The Idempotency-Key was used for different content',
  },
  idempotency_key_in_use: {
    status: 409,
    description: 'The Idempotency-Key is being used by a concurrent request',
  },
  venue_not_bound: {
    status: 409,
    description: 'A venue is not bound by the owner (body has `issues`)',
  },
  credential_unreadable: {
    status: 409,
    description: 'The stored venue credential cannot be read; rebind',
  },
  fenced_out: {
    status: 409,
    description: 'Another worker took the lease over',
  },
  owner_operation_in_progress: {
    status: 409,
    description: 'Another operation of the owner is in progress',
  },
  close_queued: {
    status: 409,
    description: 'A close is queued for this task',
  },
  task_not_cancellable: {
    status: 409,
    description: 'Only pending tasks can be cancelled',
  },
  task_not_running: { status: 409, description: 'The task is not running' },
  order_not_cancellable: {
    status: 409,
    description: 'The order is already terminal',
  },
  order_not_expired: {
    status: 409,
    description: 'The unknown order has not expired yet',
  },
  order_not_unknown: {
    status: 409,
    description: 'Only unknown orders can be resolved',
  },
  order_lease_active: {
    status: 409,
    description: 'A worker holds this order',
  },
  workers_not_fenced: {
    status: 409,
    description: 'Workers must be stopped and fenced first',
  },
  venue_order_live: {
    status: 409,
    description: 'The venue still shows the order as live',
  },
  filled_base_decrease: {
    status: 409,
    description: 'filledBase cannot decrease below the recorded fills',
  },
  order_rejected: {
    status: 409,
    description: 'The order was rejected before reaching the venue',
  },
  venue_rejected: {
    status: 409,
    description: 'The venue refused the request; nothing was placed',
  },
  api_key_revoked: {
    status: 409,
    description: 'The API key is already revoked',
  },
  insufficient_bound_venues: {
    status: 409,
    description: 'Too few venues are bound to create an API key',
  },
  nonce_reused: {
    status: 409,
    description: 'The authorization nonce was already used',
  },
  nonce_conflict: {
    status: 409,
    description: 'The prepare nonce was used for different content',
  },
  binding_busy: {
    status: 409,
    description: 'The binding kept changing while submitting',
  },
  duplicate_request_id: {
    status: 409,
    description: 'A sign request id appears twice',
  },
  unknown_request_id: {
    status: 409,
    description: 'A sign request id was not issued for this binding',
  },
  signature_already_accepted: {
    status: 409,
    description: 'A signature for this sign request was already accepted',
  },
  rebind_required: {
    status: 409,
    description: 'The existing binding is unusable; send rebind: true',
  },
  rebind_blocked: {
    status: 409,
    description: 'Active tasks or orders block rebinding',
  },
  // 410
  binding_expired: { status: 410, description: 'The binding session expired' },
  // 413
  payload_too_large: {
    status: 413,
    description: 'The JSON body exceeds 16,384 bytes',
  },
  // 415
  unsupported_media_type: {
    status: 415,
    description: 'Content-Type is not application/json',
  },
  // 422
  venue_account_not_found: {
    status: 422,
    description: 'The venue confirms the wallet has no account',
  },
  // 429
  rate_limited: {
    status: 429,
    description: 'Rate limit exceeded; wait Retry-After seconds',
  },
  prepare_rate_limited: {
    status: 429,
    description: 'Prepare limit of 20 batches per owner per 10 minutes',
  },
  // 431
  headers_too_large: {
    status: 431,
    description: 'The request headers exceed 16 KB',
  },
  // 500
  venue_order_transition: {
    status: 500,
    description:
      'Internal: a venue order was given an event its state does not allow',
  },
  openapi_unnamed_schema: {
    status: 500,
    description: 'A schema of the OpenAPI document has no component name',
  },
  // 503
  service_unavailable: {
    status: 503,
    description: 'The request could not complete; retry with the same key',
  },
  storage_error: { status: 503, description: 'Storage is unavailable' },
  market_data_unavailable: {
    status: 503,
    description: 'Market data is unavailable',
  },
  resize_unavailable: {
    status: 503,
    description: 'Resizing is switched off on this deployment',
  },
  venue_check_unavailable: {
    status: 503,
    description: 'The venue could not be asked whether the order is live',
  },
  binding_unavailable: {
    status: 503,
    description: 'Venue binding is not configured on this deployment',
  },
  venue_account_check_unavailable: {
    status: 503,
    description: 'The venue account lookup failed (not a missing account)',
  },
  venue_unavailable: {
    status: 503,
    description: 'The venue could not be reached; nothing was sent',
  },
  uncertain_submission: {
    status: 503,
    description: 'The venue may have received the request; no answer',
  },
} as const satisfies Record<
  string,
  { readonly status: number; readonly description: string }
>

/** A stable error code of the service. */
export type DnErrorCode = keyof typeof ERROR_CODES

/** The HTTP status a code answers with. */
export type ErrorStatusOf<C extends DnErrorCode> =
  (typeof ERROR_CODES)[C]['status']

/** The codes answering with status `S` (what a 409 class may carry). */
export type ErrorCodeOf<S extends number> = {
  [C in DnErrorCode]: ErrorStatusOf<C> extends S ? C : never
}[DnErrorCode]

/** True when `code` is in {@link ERROR_CODES}. */
export function isDnErrorCode(code: string): code is DnErrorCode {
  return Object.hasOwn(ERROR_CODES, code)
}
