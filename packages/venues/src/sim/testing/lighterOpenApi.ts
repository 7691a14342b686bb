import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { Ajv, type ErrorObject } from 'ajv'

/**
 * Test kit: Lighter's own API description, the Swagger 2.0 `openapi.json`
 * the official TypeScript client (`zklighter-perps`, a devDependency)
 * ships, read at run time (never copied into the project), and a check
 * of an answer against the 200 schema of a path and method.
 *
 * Swagger 2.0 schemas are JSON Schema draft 4 with extra words
 * (`example`, `title`) and formats of its own (`int64`, `uin16`, ...):
 * ajv runs non-strict and without format checks; `type` and `required`
 * are what matter to a client parsing the answer.
 *
 * @internal
 */
interface Swagger {
  readonly definitions: Record<string, unknown>
  readonly paths: Record<
    string,
    Record<
      string,
      { responses: Record<string, { schema?: { $ref?: string } }> }
    >
  >
}

interface LighterOpenApi {
  /** every path and method the spec describes, `GET /api/v1/account` */
  readonly operations: readonly string[]
  /**
   * The schema errors of `body` as the `status` answer (default 200) of
   * `method path` (`path` as the spec writes it, `/api/v1/...`); empty
   * when it conforms.
   * @throws {Error} when the spec has no such operation or answer
   */
  errors(method: string, path: string, body: unknown, status?: number): string[]
}

const ID = 'lighter-openapi'

const describe = (e: ErrorObject) =>
  `${e.instancePath || '/'} ${e.message ?? e.keyword}${
    e.keyword === 'required' ? '' : ` (${JSON.stringify(e.params)})`
  }`

export function loadLighterOpenApi(): LighterOpenApi {
  const file = createRequire(import.meta.url).resolve(
    'zklighter-perps/openapi.json',
  )
  const spec = JSON.parse(readFileSync(file, 'utf8')) as Swagger
  const ajv = new Ajv({
    strict: false,
    validateFormats: false,
    allErrors: true,
  })
  ajv.addSchema({ $id: ID, definitions: spec.definitions })
  const operations = Object.entries(spec.paths).flatMap(([p, ops]) =>
    Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`),
  )
  return {
    operations,
    errors(method, path, body, status = 200) {
      const ref =
        spec.paths[path]?.[method.toLowerCase()]?.responses[String(status)]
          ?.schema?.$ref
      if (!ref) throw new Error(`no ${status} schema for ${method} ${path}`)
      const validate =
        ajv.getSchema(`${ID}${ref}`) ?? ajv.compile({ $ref: `${ID}${ref}` })
      return validate(body) ? [] : (validate.errors ?? []).map(describe)
    },
  }
}
