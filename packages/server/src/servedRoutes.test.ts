import { describe, expect, test } from 'vitest'
import { buildOpenApiDocument } from './openapi/openApiDocument.js'
import { createRouter } from './router.js'
import {
  PAGE_DECLARATIONS,
  ROUTE_DECLARATIONS,
  ROUTE_SPECS,
  servedRoutes,
} from './routes/routeTable.js'
import type { ServerDeps } from './serverDeps.js'

// Handlers close over deps lazily; listing routes never touches them.
const served = servedRoutes({} as ServerDeps)
const router = createRouter(served)

/** A concrete path for a declared pattern (a uuid for every `{id}`). */
const example = (pattern: string) =>
  pattern.replace(/\{[A-Za-z]+\}/g, '0b6c1e2a-54f1-4d0e-9a55-3f1f6d1f2a10')

describe('served routes and the OpenAPI document', () => {
  test('default: the router serves every declaration, and only those', () => {
    expect(served.map((r) => `${r.method} ${r.pattern}`)).toEqual([
      ...ROUTE_SPECS.map((r) => `${r.method} ${r.path}`),
      ...PAGE_DECLARATIONS.map((p) => `${p.spec.method} ${p.spec.path}`),
    ])
    for (const spec of ROUTE_SPECS) {
      const match = router.match(spec.method, example(spec.path))
      expect(match.kind, `${spec.method} ${spec.path}`).toBe('found')
      if (match.kind === 'found') expect(match.route.pattern).toBe(spec.path)
    }
  })

  test('behavior: every declaration is documented with its method', () => {
    const doc = buildOpenApiDocument(ROUTE_SPECS) as {
      paths: Record<string, Record<string, { operationId: string }>>
    }
    for (const { spec } of ROUTE_DECLARATIONS) {
      expect(
        doc.paths[spec.path]?.[spec.method.toLowerCase()]?.operationId,
        `${spec.method} ${spec.path}`,
      ).toBe(spec.operationId)
    }
    const documented = Object.values(doc.paths).flatMap((p) => Object.keys(p))
    expect(documented).toHaveLength(ROUTE_SPECS.length)
  })

  test('behavior: pages are served but stay out of the document', () => {
    const doc = buildOpenApiDocument(ROUTE_SPECS) as {
      paths: Record<string, unknown>
    }
    expect(PAGE_DECLARATIONS.map((p) => p.spec.path)).toEqual([
      '/docs',
      '/docs/assets/redoc.standalone.js',
      '/bind',
      '/assets/bind.js',
      '/assets/bind.css',
      '/',
      '/assets/dashboard.js',
      '/assets/dashboard.css',
      '/metrics',
    ])
    for (const { spec } of PAGE_DECLARATIONS) {
      expect(router.match('GET', spec.path).kind, spec.path).toBe('found')
      expect(doc.paths[spec.path], spec.path).toBeUndefined()
    }
  })
})
