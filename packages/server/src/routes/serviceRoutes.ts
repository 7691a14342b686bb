import { json } from '../http/httpResponse.js'
import { buildOpenApiDocument } from '../openapi/openApiDocument.js'
import type { Route } from '../router.js'

/** Public routes: liveness of this process and the contract document. */
export function serviceRoutes(bindingAuthDomain?: string): Route[] {
  let openApi: string | undefined
  return [
    {
      method: 'GET',
      pattern: '/health',
      handler: async () => json(200, { ok: true }),
    },
    {
      method: 'GET',
      pattern: '/openapi.json',
      handler: async () => {
        openApi ??= JSON.stringify(
          buildOpenApiDocument(
            bindingAuthDomain === undefined ? {} : { bindingAuthDomain },
          ),
        )
        return { status: 200, body: openApi }
      },
    },
  ]
}
