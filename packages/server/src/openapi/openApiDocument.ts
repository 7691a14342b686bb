import {
  DEFAULT_BINDING_AUTH_DOMAIN,
  IdempotencyKeySchema,
  UuidSchema,
} from '@dn/core'
import type * as v from 'valibot'
import {
  componentSchemas,
  inlineSchema,
  schemaRef,
} from './componentSchemas.js'
import { errorStatuses } from './errorStatuses.js'
import { ROUTES, type RouteSpec } from './routes.js'

/** Contract version of the document (`info.version`). */
const CONTRACT_VERSION = '1.2.0'

type Json = Record<string, unknown>

const TAGS = [
  { name: 'Service', description: 'Liveness and this contract' },
  { name: 'Tasks', description: 'Paired positions on two venues' },
  { name: 'Perpetual orders', description: 'Direct single-venue orders' },
  { name: 'Request logs', description: "The current key's latest requests" },
  { name: 'Venue bindings', description: 'Bind venue accounts to a wallet' },
  { name: 'API keys', description: 'Wallet-signed API key management' },
]

const HEADERS = {
  XRequestId: {
    description: 'Identifier of this request (uuid)',
    required: true,
    schema: { type: 'string', format: 'uuid' },
  },
  XRateLimitLimit: {
    description: 'Requests allowed per minute for this key and family (120)',
    schema: { type: 'integer', minimum: 1, examples: [120] },
  },
  XRateLimitRemaining: {
    description: 'Requests left in the current window',
    schema: { type: 'integer', minimum: 0 },
  },
  RetryAfter: {
    description: 'Seconds to wait before retrying',
    required: true,
    schema: { type: 'integer', minimum: 1 },
  },
}

const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: true,
  description:
    'Retry an uncertain result with the same key, method, path and ' +
    'equivalent JSON; different content under a used key returns 409.',
  schema: schemaRef(IdempotencyKeySchema),
}

const json = (schema: v.GenericSchema): Json => ({
  'application/json': { schema: schemaRef(schema) },
})

/** `x-wallet-address` -> `X-Wallet-Address`. */
function headerName(key: string): string {
  return key
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('-')
}

/** One parameter per entry of an object schema (query or headers). */
function entryParameters(
  schema: v.GenericSchema | undefined,
  where: 'query' | 'header',
): Json[] {
  const entries =
    schema && 'entries' in schema
      ? (schema.entries as Record<string, v.GenericSchema>)
      : {}
  return Object.entries(entries).map(([key, entry]) => ({
    name: where === 'header' ? headerName(key) : key,
    in: where,
    required: entry.type !== 'optional',
    schema: inlineSchema(entry),
  }))
}

function parameters(route: RouteSpec): Json[] {
  const path = [...route.path.matchAll(/\{([A-Za-z]+)\}/g)].map((match) => ({
    name: match[1],
    in: 'path',
    required: true,
    description: 'A lowercase uuid',
    schema: schemaRef(UuidSchema),
  }))
  return [
    ...path,
    ...entryParameters(route.request?.query, 'query'),
    ...entryParameters(route.request?.headers, 'header'),
    ...(route.idempotent
      ? [{ $ref: '#/components/parameters/IdempotencyKey' }]
      : []),
  ]
}

/** Response headers: Bearer routes carry request id and rate-limit state. */
function responseHeaders(route: RouteSpec, status: number): Json | undefined {
  if (route.auth !== 'apiKey') return undefined
  const headers: Json = {
    'X-Request-Id': { $ref: '#/components/headers/XRequestId' },
    'X-RateLimit-Limit': { $ref: '#/components/headers/XRateLimitLimit' },
    'X-RateLimit-Remaining': {
      $ref: '#/components/headers/XRateLimitRemaining',
    },
  }
  if (status === 429) {
    headers['Retry-After'] = { $ref: '#/components/headers/RetryAfter' }
  }
  return headers
}

function response(
  route: RouteSpec,
  status: number,
  description: string,
  schema: v.GenericSchema,
): Json {
  const headers = responseHeaders(route, status)
  return {
    description,
    ...(headers ? { headers } : {}),
    content: json(schema),
  }
}

function operation(route: RouteSpec): Json {
  const responses: Json = {
    [route.success.status]: response(
      route,
      route.success.status,
      route.success.description,
      route.success.schema,
    ),
  }
  for (const { status, description } of errorStatuses(
    route.errors,
    route.reservedStatuses,
  )) {
    responses[status] = response(route, status, description, route.errorSchema)
  }
  const params = parameters(route)
  return {
    operationId: route.operationId,
    summary: route.summary,
    tags: [route.tag],
    security: route.auth === 'apiKey' ? [{ bearerAuth: [] }] : [],
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(route.request?.body
      ? {
          requestBody: { required: true, content: json(route.request.body) },
        }
      : {}),
    responses,
  }
}

/**
 * Builds the OpenAPI 3.1.1 contract from {@link ROUTES} and the valibot
 * schemas. Deterministic: the same code yields the same JSON.
 *
 * @returns A fresh JSON-serialisable document.
 * @example
 * const body = JSON.stringify(buildOpenApiDocument())
 */
export function buildOpenApiDocument(
  options: { readonly bindingAuthDomain?: string } = {},
): Record<string, unknown> {
  const domain = options.bindingAuthDomain ?? DEFAULT_BINDING_AUTH_DOMAIN
  const paths: Record<string, Json> = {}
  const routes: readonly RouteSpec[] = ROUTES
  for (const route of routes) {
    const item = paths[route.path] ?? {}
    item[route.method.toLowerCase()] = operation(route)
    paths[route.path] = item
  }
  return {
    openapi: '3.1.1',
    info: {
      title: 'dn paired-position and perpetual-order service',
      version: CONTRACT_VERSION,
      description:
        'Opens, monitors, resizes and closes paired positions, places ' +
        'direct perpetual orders and binds venue accounts to a wallet. ' +
        'HTTP 202 only acknowledges a command; poll to observe execution. ' +
        'Wallet authorizations are EIP-191 personal_sign over four lines: ' +
        '`service venue binding v1`, ' +
        `\`domain=${domain}\`, ` +
        '`action=<prepare|read|create_api_key|list_api_keys|revoke_api_key>`, ' +
        '`payload=<canonical JSON>` (keys sorted, no whitespace, owner ' +
        'lowercased), joined by newlines, no trailing newline. Signatures ' +
        'are recovered offline (EOA); smart-contract wallets are not ' +
        'accepted.',
      'x-binding-auth-domain': domain,
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    tags: TAGS,
    paths,
    components: {
      schemas: componentSchemas(),
      parameters: { IdempotencyKey: IDEMPOTENCY_KEY_PARAMETER },
      headers: HEADERS,
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'API key `<key_prefix>_<key_uuid>.<secret>`',
        },
      },
    },
  }
}
