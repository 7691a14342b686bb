import { describe, expect, test } from 'vitest'
import { allRoutes } from './createRequestListener.js'
import { buildOpenApiDocument } from './openapi/openApiDocument.js'
import { ROUTES } from './openapi/routes.js'
import type { ServerDeps } from './serverDeps.js'

// Handlers close over deps lazily; listing routes never touches them.
const served = allRoutes({} as ServerDeps)

describe('served routes and the OpenAPI document', () => {
  test('default: every served route is documented with its method', () => {
    const doc = buildOpenApiDocument() as {
      paths: Record<string, Record<string, unknown>>
    }
    for (const r of served) {
      expect(doc.paths[r.pattern], r.pattern).toBeDefined()
      expect(
        doc.paths[r.pattern]?.[r.method.toLowerCase()],
        `${r.method} ${r.pattern}`,
      ).toBeDefined()
    }
  })

  test('behavior: every served route has a ROUTES entry', () => {
    const documented = new Set(ROUTES.map((r) => `${r.method} ${r.path}`))
    const missing = served
      .map((r) => `${r.method} ${r.pattern}`)
      .filter((k) => !documented.has(k))
    expect(missing).toEqual([])
  })

  test('behavior: ROUTES names only routes this build serves or the contract defines', () => {
    const servedKeys = new Set(served.map((r) => `${r.method} ${r.pattern}`))
    const notServed = ROUTES.map((r) => `${r.method} ${r.path}`).filter(
      (k) => !servedKeys.has(k),
    )
    // Venue binding routes arrive with the binding issue; nothing else may be missing.
    expect(notServed.every((k) => k.includes('/v1/venue-bindings'))).toBe(true)
  })
})
