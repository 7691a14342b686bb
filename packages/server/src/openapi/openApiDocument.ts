import {
  BindingError,
  DEFAULT_BINDING_AUTH_DOMAIN,
  ErrorBody,
  IdempotencyKeySchema,
  UuidSchema,
} from '@dn/core'
import type * as v from 'valibot'
import type { RouteSpec, RouteTag } from '../routes/routeSpec.js'
import {
  componentSchemas,
  inlineSchema,
  schemaRef,
} from './componentSchemas.js'
import { errorStatuses } from './errorStatuses.js'

/** Contract version of the document (`info.version`). */
const CONTRACT_VERSION = '1.2.0'

type Json = Record<string, unknown>

/** Tags in document order; only tags some route uses are listed. */
const TAGS: Readonly<Record<RouteTag, string>> = {
  Service: 'Liveness and this contract',
  Tasks: 'Paired positions on two venues',
  'Perpetual orders': 'Direct single-venue orders',
  Markets: "A granted venue's listed markets, their rules and quotes",
  Accounts:
    "The owner's bound accounts: positions and balances as the worker last read them",
  'Request logs': "The current key's latest requests",
  'Venue bindings': 'Bind venue accounts to a wallet',
  'API keys': 'Wallet-signed API key management',
}

/** Schemas routes add to the document, by name. */
type Components = Readonly<Record<string, v.GenericSchema>>

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

const json = (schema: v.GenericSchema, extra: Components): Json => ({
  'application/json': { schema: schemaRef(schema, extra) },
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
  extra: Components,
): Json[] {
  const entries =
    schema && 'entries' in schema
      ? (schema.entries as Record<string, v.GenericSchema>)
      : {}
  return Object.entries(entries).map(([key, entry]) => ({
    name: where === 'header' ? headerName(key) : key,
    in: where,
    required: entry.type !== 'optional',
    schema: inlineSchema(entry, extra),
  }))
}

function parameters(route: RouteSpec, extra: Components): Json[] {
  const path = [...route.path.matchAll(/\{([A-Za-z]+)\}/g)].map((match) => ({
    name: match[1],
    in: 'path',
    required: true,
    description: 'A lowercase uuid',
    schema: schemaRef(UuidSchema),
  }))
  return [
    ...path,
    ...entryParameters(route.request?.query, 'query', extra),
    ...entryParameters(route.request?.headers, 'header', extra),
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
  extra: Components,
): Json {
  const headers = responseHeaders(route, status)
  return {
    description,
    ...(headers ? { headers } : {}),
    content: json(schema, extra),
  }
}

function operation(route: RouteSpec, extra: Components): Json {
  // binding routes answer exactly `{code, error}`
  const errorSchema = route.tag === 'Venue bindings' ? BindingError : ErrorBody
  const responses: Json = {
    [route.success.status]: response(
      route,
      route.success.status,
      route.success.description,
      route.success.schema,
      extra,
    ),
  }
  for (const { status, description } of errorStatuses(
    route.errors,
    route.reservedStatuses,
  )) {
    responses[status] = response(route, status, description, errorSchema, extra)
  }
  const params = parameters(route, extra)
  return {
    operationId: route.operationId,
    summary: route.summary,
    tags: [route.tag],
    security: route.auth === 'apiKey' ? [{ bearerAuth: [] }] : [],
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(route.request?.body
      ? {
          requestBody: {
            required: true,
            content: json(route.request.body, extra),
          },
        }
      : {}),
    responses,
  }
}

/**
 * Builds the OpenAPI 3.1.1 contract from the route declarations and the
 * valibot schemas. Deterministic: the same code yields the same JSON.
 *
 * @param routes Every declared route, in document order.
 * @returns A fresh JSON-serialisable document.
 * @example
 * const body = JSON.stringify(buildOpenApiDocument(ROUTE_SPECS))
 */
export function buildOpenApiDocument(
  routes: readonly RouteSpec[],
  options: { readonly bindingAuthDomain?: string } = {},
): Record<string, unknown> {
  const domain = options.bindingAuthDomain ?? DEFAULT_BINDING_AUTH_DOMAIN
  const extra: Components = Object.assign(
    {},
    ...routes.map((r) => r.components ?? {}),
  )
  const paths: Record<string, Json> = {}
  for (const route of routes) {
    const item = paths[route.path] ?? {}
    item[route.method.toLowerCase()] = operation(route, extra)
    paths[route.path] = item
  }
  const used = new Set(routes.map((r) => r.tag))
  const tags = Object.entries(TAGS)
    .filter(([name]) => used.has(name as RouteTag))
    .map(([name, description]) => ({ name, description }))
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
    tags,
    paths,
    components: {
      schemas: componentSchemas(extra),
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
