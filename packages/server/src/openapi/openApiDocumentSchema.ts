import * as v from 'valibot'

/** The contract document itself, as `GET /openapi.json` returns it. */
export const OpenApiDocumentSchema = v.looseObject({
  openapi: v.string(),
  info: v.looseObject({ title: v.string(), version: v.string() }),
  paths: v.record(v.string(), v.unknown()),
})
