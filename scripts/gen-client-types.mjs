#!/usr/bin/env node
/**
 * `npm run gen:client`: writes packages/client/src/generated/openapiTypes.ts
 * from the document `GET /openapi.json` serves. It reads the built server and
 * core (the npm script builds them first) because the client may not import
 * either; test/clientTypesDrift.test.ts fails when the file is stale.
 */
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { renderClientTypes } from './renderClientTypes.mjs'

const root = new URL('../', import.meta.url)
const { ERROR_CODES } = await import(
  new URL('packages/core/dist/index.js', root).href
)
const { buildOpenApiDocument, ROUTE_SPECS } = await import(
  new URL('packages/server/dist/index.js', root).href
)

const target = new URL('packages/client/src/generated/openapiTypes.ts', root)
writeFileSync(
  target,
  renderClientTypes(
    buildOpenApiDocument(ROUTE_SPECS),
    Object.keys(ERROR_CODES),
  ),
)
console.log(`wrote ${fileURLToPath(target)}`)
