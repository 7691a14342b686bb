import { readFileSync } from 'node:fs'
import { ERROR_CODES } from '@dn/core'
import { buildOpenApiDocument, ROUTE_SPECS } from '@dn/server'
import { describe, expect, test } from 'vitest'
import { renderClientTypes } from '../scripts/renderClientTypes.mjs'

const GENERATED = new URL(
  '../packages/client/src/generated/openapiTypes.ts',
  import.meta.url,
)

// The client may not import the server or core, so its response types are
// generated from the document the server serves and committed; this holds
// the committed file to the live document.
describe('client generated types', () => {
  test('default: the committed file is what the live document renders', () => {
    const fresh = renderClientTypes(
      buildOpenApiDocument(ROUTE_SPECS),
      Object.keys(ERROR_CODES),
    )
    const committed = readFileSync(GENERATED, 'utf8')
    if (committed !== fresh) {
      expect.fail(
        'packages/client/src/generated/openapiTypes.ts is stale: run ' +
          '`npm run gen:client` and commit the result',
      )
    }
  })

  test('behavior: a status that stops being an enum fails the generator', () => {
    const doc = buildOpenApiDocument(ROUTE_SPECS) as {
      components: { schemas: Record<string, { properties: object }> }
    }
    const task = doc.components.schemas.Task
    if (!task) throw new Error('no Task component')
    task.properties = { ...task.properties, status: { type: 'string' } }
    expect(() => renderClientTypes(doc, [])).toThrow(
      'Task.status is no longer an enum',
    )
  })
})
