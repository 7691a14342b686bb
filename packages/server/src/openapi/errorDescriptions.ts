import type { RouteTag } from './routes.js'

const KEY_ROUTES: Readonly<Record<number, string>> = {
  400: 'Invalid fields, query, JSON or idempotency key',
  401: 'Missing, invalid or revoked API key',
  403: 'The key does not grant the required venues',
  404: 'Task, order or route not found or inaccessible',
  409: 'Conflicting state, owner operation, binding or idempotency key (same key, different content)',
  413: 'JSON body exceeds 16,384 bytes',
  415: 'Content-Type is not application/json',
  429: '120 requests per minute per key exceeded; wait Retry-After seconds',
  503: 'Storage, market data or worker feature unavailable',
}

const BINDING_ROUTES: Readonly<Record<number, string>> = {
  400: 'Invalid request or signature encoding',
  401: 'Invalid or expired wallet authorization',
  403: 'Wrong wallet or account owner',
  404: 'Binding or route not found or inaccessible',
  405: 'Unsupported method',
  409: 'Binding, nonce, idempotency, signature or rebind conflict',
  410: 'Binding session expired',
  413: 'Request exceeds 16 KiB',
  415: 'Content-Type must be application/json',
  422: 'The selected venue confirms the wallet has no account; nothing prepared',
  429: 'Prepare limit of 20 batches per owner per 10 minutes',
  503: 'Storage, venue or configuration unavailable',
}

const API_KEY_ROUTES: Readonly<Record<number, string>> = {
  400: 'Invalid fields, headers, JSON or signature encoding',
  401: 'Invalid or expired wallet authorization',
  403: 'The wallet may not do this (for example, too few venues bound)',
  404: 'API key not found or not owned by the wallet',
  409: 'Nonce conflict, or the key is already revoked',
  413: 'JSON body exceeds 16,384 bytes',
  415: 'Content-Type is not application/json',
  429: 'Rate limit exceeded',
  503: 'Storage or configuration unavailable',
}

/**
 * What each error status means for a group of routes, worded after the
 * contract's error tables (key-authenticated and binding routes).
 *
 * @param tag The route's tag.
 * @returns Status -> one-line description.
 */
export function errorDescriptions(
  tag: RouteTag,
): Readonly<Record<number, string>> {
  if (tag === 'Venue bindings') return BINDING_ROUTES
  if (tag === 'API keys') return API_KEY_ROUTES
  return KEY_ROUTES
}
