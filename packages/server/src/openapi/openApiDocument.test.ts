import { readFileSync } from 'node:fs'
import { Validator } from '@seriousme/openapi-schema-validator'
import { describe, expect, test } from 'vitest'
import type { RouteSpec } from '../routes/routeSpec.js'
import { ROUTE_SPECS } from '../routes/routeTable.js'
import { errorStatuses } from './errorStatuses.js'
import { buildOpenApiDocument } from './openApiDocument.js'

type Json = Record<string, unknown>

const routes = ROUTE_SPECS
const doc = buildOpenApiDocument(routes)
const paths = doc.paths as Record<string, Record<string, Json>>
// the contract's endpoint tables (`| GET | `/path` |`), read from its text
const required = [
  ...readFileSync(
    new URL('../../../../docs/service-contract.md', import.meta.url),
    'utf8',
  ).matchAll(/^\| (GET|POST) \| `([^`]+)` \|/gm),
].map((m) => `${m[1]} ${m[2]}`)

const statusesOf = (route: RouteSpec) =>
  errorStatuses(route.errors, route.reservedStatuses).map((e) => e.status)
const components = doc.components as Record<string, Record<string, Json>>
const schemas = components.schemas as Record<string, Json>

function component(name: string): Json {
  return schemas[name] ?? expect.unreachable(`no component ${name}`)
}

function operationOf(route: RouteSpec): Json {
  const op = paths[route.path]?.[route.method.toLowerCase()]
  if (!op) return expect.unreachable(`${route.method} ${route.path} missing`)
  return op
}

/** Every `$ref` value anywhere in a JSON value. */
function refsIn(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) refsIn(item, out)
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key === '$ref' && typeof item === 'string') out.push(item)
      else refsIn(item, out)
    }
  }
  return out
}

function resolve(ref: string): unknown {
  return ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>((node, part) => (node as Json | undefined)?.[part], doc)
}

describe('buildOpenApiDocument', () => {
  test('default: a valid OpenAPI 3.1.1 document, version 1.2.0', async () => {
    const result = await new Validator().validate(doc)
    if (!result.valid) console.error(JSON.stringify(result.errors, null, 2))
    expect(result.valid).toBe(true)
    expect(doc.openapi).toBe('3.1.1')
    expect((doc.info as Json).version).toBe('1.2.0')
    expect((doc.info as Json).title).toBe(
      'dn paired-position and perpetual-order service',
    )
    expect(doc.jsonSchemaDialect).toBe(
      'https://json-schema.org/draft/2020-12/schema',
    )
  })

  test('behavior: deterministic', () => {
    expect(JSON.stringify(buildOpenApiDocument(routes))).toBe(
      JSON.stringify(doc),
    )
  })

  test('behavior: every $ref resolves', () => {
    const refs = refsIn(doc)
    expect(refs.length).toBeGreaterThan(50)
    for (const ref of new Set(refs)) {
      expect(resolve(ref), ref).toBeDefined()
    }
  })

  test('behavior: every route is documented with exactly its statuses', () => {
    const documented = Object.values(paths).flatMap((item) => Object.keys(item))
    expect(documented).toHaveLength(routes.length)
    for (const route of routes) {
      const op = operationOf(route)
      expect(op.operationId).toBe(route.operationId)
      const statuses = Object.keys(op.responses as Json).map(Number)
      expect(statuses.sort((a, b) => a - b)).toEqual(
        [route.success.status, ...statusesOf(route)].sort((a, b) => a - b),
      )
      for (const status of statusesOf(route)) {
        const res = (op.responses as Record<string, Json>)[status] as Json
        expect(typeof res.description).toBe('string')
        expect(res.description).not.toBe('Error')
        const errorRef =
          route.tag === 'Venue bindings' ? 'BindingError' : 'ErrorBody'
        expect(refsIn(res.content)).toEqual([
          `#/components/schemas/${errorRef}`,
        ])
      }
    }
  })

  test('behavior: error lists follow the contract', () => {
    const errorsOf = (method: string, path: string) => {
      const route = routes.find((r) => r.method === method && r.path === path)
      return route && statusesOf(route)
    }
    const keyGet = [400, 401, 404, 429, 503]
    const keyPost = [400, 401, 403, 404, 409, 413, 415, 429, 503]
    const binding = [400, 401, 403, 404, 405, 409, 410, 413, 415, 429, 503]
    for (const route of routes) {
      // the contract's lists bind its own routes; newer routes declare theirs
      const inContract = required.includes(`${route.method} ${route.path}`)
      if (route.auth !== 'apiKey' || !inContract) continue
      expect(statusesOf(route)).toEqual(
        route.method === 'GET' ? keyGet : keyPost,
      )
    }
    expect(errorsOf('POST', '/v1/venue-bindings/prepare')).toEqual(
      [...binding, 422].sort((a, b) => a - b),
    )
    expect(errorsOf('POST', '/v1/venue-bindings/{bindingId}/submit')).toEqual(
      binding,
    )
    expect(errorsOf('GET', '/v1/venue-bindings/{bindingId}')).toEqual(binding)
    expect(errorsOf('POST', '/v1/api-keys')).toEqual([
      400, 401, 403, 409, 413, 415, 429, 503,
    ])
    expect(errorsOf('GET', '/v1/api-keys')).toEqual([400, 401, 429, 503])
    expect(errorsOf('POST', '/v1/api-keys/{keyId}/revoke')).toEqual([
      400, 401, 403, 404, 409, 413, 415, 429, 503,
    ])
    expect(errorsOf('GET', '/health')).toEqual([])
  })

  test('behavior: every route of the contract is declared, once', () => {
    expect(required.length).toBeGreaterThan(15)
    const declared = routes.map((r) => `${r.method} ${r.path}`)
    expect(declared.filter((k) => required.includes(k))).toEqual(required)
    expect(new Set(declared).size).toBe(routes.length)
    expect(new Set(routes.map((r) => r.operationId)).size).toBe(routes.length)
  })

  test('behavior: idempotent POSTs require Idempotency-Key', () => {
    const idempotent = routes.filter((r) => r.idempotent)
    expect(idempotent.map((r) => r.operationId)).toEqual([
      'createTask',
      'cancelTask',
      'closeTask',
      'resizeTask',
      'createPerpOrder',
      'cancelPerpOrder',
      'resolvePerpOrder',
      'submitVenueBindings',
    ])
    for (const route of routes) {
      const refs = refsIn(operationOf(route).parameters ?? [])
      expect(refs.includes('#/components/parameters/IdempotencyKey')).toBe(
        route.idempotent,
      )
    }
    const param = components.parameters?.IdempotencyKey as Json
    expect(param.name).toBe('Idempotency-Key')
    expect(param.in).toBe('header')
    expect(param.required).toBe(true)
    expect(schemas.IdempotencyKey).toMatchObject({
      type: 'string',
      minLength: 1,
      maxLength: 128,
      pattern: '^[!-~]+$',
    })
  })

  test('behavior: path parameters use the lowercase uuid pattern', () => {
    expect(schemas.Uuid?.pattern).toBe(
      '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$',
    )
    for (const route of routes.filter((r) => r.path.includes('{'))) {
      const params = operationOf(route).parameters as Json[]
      const inPath = params.filter((p) => p.in === 'path')
      expect(inPath).toHaveLength(1)
      expect(inPath[0]).toMatchObject({
        required: true,
        schema: { $ref: '#/components/schemas/Uuid' },
      })
    }
  })

  test('behavior: list routes take the list query parameters', () => {
    for (const id of ['listTasks', 'listPerpOrders']) {
      const route = routes.find((r) => r.operationId === id) as RouteSpec
      const params = operationOf(route).parameters as Json[]
      const query = Object.fromEntries(
        params.filter((p) => p.in === 'query').map((p) => [p.name, p]),
      )
      expect(Object.keys(query)).toEqual([
        'limit',
        'status',
        'updatedSince',
        'cursor',
      ])
      expect(query.limit).toMatchObject({
        required: false,
        schema: { type: 'integer', minimum: 1, maximum: 20, default: 20 },
      })
      expect(query.status?.schema).toMatchObject({
        pattern: '^[a-z][a-z0-9_]{0,63}$',
      })
      expect(query.updatedSince?.schema).toMatchObject({
        pattern:
          '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{1,6}Z$',
      })
      expect(query.cursor?.schema).toMatchObject({
        maxLength: 1024,
        pattern: '^[A-Za-z0-9_-]+$',
      })
    }
  })

  test('behavior: wallet-signed reads document the wallet headers', () => {
    for (const id of ['listApiKeys', 'getVenueBindingBatch']) {
      const route = routes.find((r) => r.operationId === id) as RouteSpec
      const headers = (operationOf(route).parameters as Json[])
        .filter((p) => p.in === 'header')
        .map((p) => [p.name, p.required])
      expect(headers).toEqual([
        ['X-Wallet-Address', true],
        ['X-Wallet-Expires-At', true],
        ['X-Wallet-Signature', true],
      ])
    }
  })

  test('behavior: Bearer routes have security and rate-limit headers', () => {
    const bearer = (components.securitySchemes as Json).bearerAuth
    expect(bearer).toMatchObject({ type: 'http', scheme: 'bearer' })
    for (const route of routes) {
      const op = operationOf(route)
      const responses = op.responses as Record<string, Json>
      if (route.auth === 'apiKey') {
        expect(op.security).toEqual([{ bearerAuth: [] }])
        for (const [status, res] of Object.entries(responses)) {
          const names = Object.keys(res.headers as Json)
          expect(names).toEqual(
            status === '429'
              ? [
                  'X-Request-Id',
                  'X-RateLimit-Limit',
                  'X-RateLimit-Remaining',
                  'Retry-After',
                ]
              : ['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining'],
          )
        }
      } else {
        expect(op.security).toEqual([])
        for (const res of Object.values(responses)) {
          expect(res.headers).toBeUndefined()
        }
      }
    }
  })

  test('behavior: request bodies and success schemas are $refs', () => {
    for (const route of routes) {
      const op = operationOf(route)
      const body = op.requestBody as Json | undefined
      expect(body !== undefined).toBe(route.request?.body !== undefined)
      if (body) {
        expect(body.required).toBe(true)
        expect(refsIn(body.content)).toHaveLength(1)
      }
      const success = (op.responses as Record<string, Json>)[
        route.success.status
      ] as Json
      expect(refsIn(success.content)).toHaveLength(1)
    }
  })

  test('behavior: CreateTaskBody rejects additional properties', () => {
    const schema = schemas.CreateTaskBody as Json
    expect(schema.additionalProperties).toBe(false)
    expect(schema.required).toEqual([
      'longVenue',
      'shortVenue',
      'longMarket',
      'shortMarket',
      'sizeUsd',
    ])
    expect((schema.properties as Json).sizeUsd).toMatchObject({
      type: 'number',
      minimum: 10,
      maximum: 99999999999999,
    })
    expect((schema.properties as Json).longVenue).toEqual({
      $ref: '#/components/schemas/Venue',
    })
  })

  test('behavior: request bodies are closed; ErrorBody is open', () => {
    for (const name of [
      'EmptyBody',
      'CreateTaskBody',
      'ResizeTaskBody',
      'ResolvePerpOrderBody',
      'PrepareVenueBindingsBody',
      'SubmitVenueBindingsBody',
      'CreateApiKeyBody',
      'RevokeApiKeyBody',
      'WalletAuthorization',
      'VenueBindingBatch',
      'BindingError',
    ]) {
      expect(schemas[name]?.additionalProperties, name).toBe(false)
    }
    expect(schemas.ErrorBody?.additionalProperties).toBeUndefined()
    expect(schemas.ErrorBody?.required).toEqual(['error', 'code'])
  })

  test('behavior: CreatePerpOrderBody is a oneOf of closed market and limit shapes', () => {
    const oneOf = schemas.CreatePerpOrderBody?.oneOf as Json[]
    expect(oneOf).toHaveLength(2)
    const [market, limit] = oneOf as [Json, Json]
    expect(market.additionalProperties).toBe(false)
    expect(limit.additionalProperties).toBe(false)
    const mp = market.properties as Record<string, Json>
    const lp = limit.properties as Record<string, Json>
    expect(mp.orderType).toEqual({ const: 'market' })
    expect(lp.orderType).toEqual({ const: 'limit' })
    expect(mp.timeInForce).toMatchObject({ const: 'ioc' })
    expect(mp.limitPrice).toEqual({ not: {} })
    expect(lp.slippageBps).toEqual({ not: {} })
    expect(limit.required).toContain('limitPrice')
    expect(mp.slippageBps).toMatchObject({
      type: 'integer',
      minimum: 0,
      maximum: 5000,
    })
  })

  test('behavior: cross-field rules are written as JSON Schema keywords', () => {
    expect(schemas.ResizeTaskBody?.anyOf).toEqual([
      { required: ['longTargetBase'] },
      { required: ['shortTargetBase'] },
    ])
    expect(schemas.ResolvePerpOrderBody).toMatchObject({
      if: { properties: { filledBase: { const: 0 } } },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema keyword
      then: { properties: { averagePrice: { type: 'null' } } },
      else: { properties: { averagePrice: { type: 'number' } } },
    })
    const notSame = (component('CreateTaskBody').not as Json).anyOf as Json[]
    expect(notSame).toHaveLength(4)
    expect(notSame[0]).toEqual({
      properties: {
        longVenue: { const: 'aster' },
        shortVenue: { const: 'aster' },
      },
      required: ['longVenue', 'shortVenue'],
    })
    const targets = (component('PrepareVenueBindingsBody').properties as Json)
      .venues as Json
    expect(targets.allOf).toHaveLength(4)
    const venues = (component('CreateApiKeyBody').properties as Json).venues
    expect(venues).toMatchObject({
      uniqueItems: true,
      minItems: 1,
      maxItems: 4,
    })
  })
})
