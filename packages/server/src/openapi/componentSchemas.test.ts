import { Ajv2020 } from 'ajv/dist/2020.js'
import { describe, expect, test } from 'vitest'
import { ROUTE_SPECS } from '../routes/routeTable.js'
import { buildOpenApiDocument } from './openApiDocument.js'

// The OpenAPI validator checks the document's structure only; compile every
// component schema as JSON Schema 2020-12 and try it on real bodies.
describe('component schemas', () => {
  const doc = buildOpenApiDocument(ROUTE_SPECS) as {
    components: { schemas: Record<string, object> }
  }
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  for (const [name, schema] of Object.entries(doc.components.schemas)) {
    ajv.addSchema(schema, `#/components/schemas/${name}`)
  }

  test('default: every component compiles as JSON Schema 2020-12', () => {
    for (const name of Object.keys(doc.components.schemas)) {
      expect(
        () => ajv.getSchema(`#/components/schemas/${name}`),
        name,
      ).not.toThrow()
    }
    expect(Object.keys(doc.components.schemas).length).toBeGreaterThan(20)
  })

  test('behavior: CreateTask accepts a valid body and refuses unknown fields and bad bounds', () => {
    const validate = ajv.getSchema('#/components/schemas/CreateTaskBody')
    expect(validate).toBeDefined()
    const ok = {
      longVenue: 'hl',
      shortVenue: 'aster',
      longMarket: 'BTC',
      shortMarket: 'BTCUSDT',
      sizeUsd: 100,
    }
    expect(validate?.(ok)).toBe(true)
    expect(validate?.({ ...ok, extra: 1 })).toBe(false)
    expect(validate?.({ ...ok, sizeUsd: 9 })).toBe(false)
    expect(validate?.({ ...ok, shortVenue: 'hl' })).toBe(false)
  })
})
