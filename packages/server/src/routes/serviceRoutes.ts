import { Health } from '@dn/core'
import { json } from '../http/httpResponse.js'
import { buildOpenApiDocument } from '../openapi/openApiDocument.js'
import { OpenApiDocumentSchema } from '../openapi/openApiDocumentSchema.js'
import { defineRoute } from './routeSpec.js'

const service = {
  method: 'GET',
  tag: 'Service',
  auth: 'none',
  idempotent: false,
  errors: [],
} as const

/** Public routes: liveness of this process and the contract document. */
export const SERVICE_ROUTES = [
  defineRoute(
    {
      ...service,
      path: '/health',
      operationId: 'getHealth',
      summary: 'Liveness of the service (not of credentials or venues)',
      success: { status: 200, schema: Health, description: 'The service runs' },
    },
    () => async () => json(200, { ok: true }),
  ),
  defineRoute(
    {
      ...service,
      path: '/openapi.json',
      operationId: 'getOpenApiDocument',
      summary: 'This OpenAPI 3.1.1 contract',
      success: {
        status: 200,
        schema: OpenApiDocumentSchema,
        description: 'The OpenAPI document',
      },
    },
    ({ deps, routes }) => {
      // built and serialized on first request, then served as is
      let cached: { body: unknown; text: string } | undefined
      return async () => {
        if (!cached) {
          const body = buildOpenApiDocument(
            routes,
            deps.authDomain === undefined
              ? {}
              : { bindingAuthDomain: deps.authDomain },
          )
          cached = { body, text: JSON.stringify(body) }
        }
        return { status: 200, ...cached }
      }
    },
  ),
]
