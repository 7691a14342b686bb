/**
 * Renders `packages/client/src/generated/openapiTypes.ts` from the service's
 * OpenAPI document and its error code table. Pure and deterministic (the
 * drift test renders in memory and compares), so no dates and no map order
 * other than the document's own.
 *
 * Only what the service answers is rendered (every response body and what
 * it references): request bodies carry validation-only keywords (`not`,
 * `if`/`then`) that have no TypeScript meaning, and the client keeps those
 * types by hand, held to the routes by test/clientRoutes.test.ts.
 */

/** Properties whose enum gets a name of its own, for waits and filters. */
const NAMED_UNIONS = [
  {
    name: 'TaskStatus',
    constant: 'TASK_STATUSES',
    component: 'Task',
    property: 'status',
  },
  {
    name: 'PerpOrderStatus',
    constant: 'PERP_ORDER_STATUSES',
    component: 'PerpOrder',
    property: 'status',
  },
  {
    name: 'BindingBatchStatus',
    constant: 'BINDING_BATCH_STATUSES',
    component: 'VenueBindingBatch',
    property: 'status',
  },
  {
    name: 'BindingVenueStatus',
    constant: 'BINDING_VENUE_STATUSES',
    component: 'VenueBindingResult',
    property: 'status',
  },
]

const REF = '#/components/schemas/'
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/

/** @param {string} s */
const literal = (s) =>
  `'${String(s).replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`

/** @param {unknown} v */
const jsonLiteral = (v) =>
  typeof v === 'string' ? literal(v) : JSON.stringify(v)

/** @param {string} text @param {string} pad */
function docComment(text, pad) {
  const safe = text.replaceAll('*/', '*\\/')
  return `${pad}/** ${safe} */\n`
}

/** What a reader needs that the TypeScript type cannot say. */
function describe(schema) {
  if (schema.description) return schema.description
  if (schema.format) return schema.format
  if (schema.pattern) return `matches \`${schema.pattern}\``
  return undefined
}

/** Every component named by a response, plus what those reference. */
function responseComponents(doc) {
  const schemas = doc.components.schemas
  const wanted = new Set()
  const visit = (node) => {
    if (Array.isArray(node)) return node.forEach(visit)
    if (!node || typeof node !== 'object') return
    if (typeof node.$ref === 'string' && node.$ref.startsWith(REF)) {
      const name = node.$ref.slice(REF.length)
      if (wanted.has(name)) return
      if (!schemas[name]) throw new Error(`dangling $ref ${node.$ref}`)
      wanted.add(name)
      visit(schemas[name])
    }
    for (const value of Object.values(node)) visit(value)
  }
  for (const item of Object.values(doc.paths))
    for (const op of Object.values(item))
      for (const res of Object.values(op.responses ?? {}))
        visit(res.content?.['application/json']?.schema)
  return Object.keys(schemas).filter((name) => wanted.has(name))
}

/** The enum of each named union, checked to still be an enum. */
function namedUnions(doc) {
  return NAMED_UNIONS.map((u) => {
    const schema = doc.components.schemas[u.component]?.properties?.[u.property]
    if (!Array.isArray(schema?.enum))
      throw new Error(
        `${u.component}.${u.property} is no longer an enum in the document`,
      )
    return { ...u, values: schema.enum }
  })
}

/** An inline enum equal to a named one is written as that name. */
function enumType(values, unions) {
  const key = JSON.stringify(values)
  const same = unions.find((u) => JSON.stringify(u.values) === key)
  return same ? same.name : union(values.map(jsonLiteral))
}

function union(parts) {
  const unique = [...new Set(parts)]
  return unique.length === 0 ? 'never' : unique.join(' | ')
}

/**
 * @param {Record<string, any>} schema
 * @param {string} pad indentation of the line the type starts on
 * @param {{ unions: { name: string, values: unknown[] }[], named?: (prop: string) => string | undefined }} ctx
 *   the named unions, and property overrides of the object being rendered
 */
function toType(schema, pad, ctx) {
  if (schema === true || Object.keys(schema).length === 0) return 'unknown'
  if (schema.$ref) return schema.$ref.slice(REF.length)
  if ('const' in schema) return jsonLiteral(schema.const)
  if (Array.isArray(schema.enum)) return enumType(schema.enum, ctx.unions)
  const alternatives = schema.anyOf ?? schema.oneOf
  if (Array.isArray(alternatives))
    return union(
      alternatives.map((s) => toType(s, pad, { unions: ctx.unions })),
    )
  switch (schema.type) {
    case 'string':
      return 'string'
    case 'integer':
    case 'number':
      return 'number'
    case 'boolean':
      return 'boolean'
    case 'null':
      return 'null'
    case 'array': {
      const item = toType(schema.items ?? {}, pad, { unions: ctx.unions })
      return /[ |&]/.test(item) && !item.startsWith('{')
        ? `(${item})[]`
        : `${item}[]`
    }
    case 'object':
      return objectType(schema, pad, ctx)
    default:
      return 'unknown'
  }
}

function objectType(schema, pad, ctx) {
  const inherit = { unions: ctx.unions }
  const props = Object.entries(schema.properties ?? {})
  if (props.length === 0) {
    const extra = schema.additionalProperties
    return extra && typeof extra === 'object'
      ? `Record<string, ${toType(extra, pad, inherit)}>`
      : 'Record<string, unknown>'
  }
  const required = new Set(schema.required ?? [])
  const inner = `${pad}  `
  const lines = props.map(([key, prop]) => {
    const name = IDENTIFIER.test(key) ? key : literal(key)
    const optional = required.has(key) ? '' : '?'
    const type = ctx.named?.(key) ?? toType(prop, inner, inherit)
    const doc = prop.$ref ? undefined : describe(prop)
    return `${doc ? docComment(doc, inner) : ''}${inner}${name}${optional}: ${type}\n`
  })
  return `{\n${lines.join('')}${pad}}`
}

/**
 * @param {{ components: { schemas: Record<string, any> }, paths: Record<string, any>, info: { version: string } }} doc
 * @param {readonly string[]} errorCodes the service's code table, in order
 * @returns {string} the TypeScript module
 */
export function renderClientTypes(doc, errorCodes) {
  const unions = namedUnions(doc)
  const schemas = doc.components.schemas
  const out = [
    '// Generated by scripts/gen-client-types.mjs from /openapi.json',
    `// (contract ${doc.info.version}) and the service's error code table.`,
    '// Do not edit: run `npm run gen:client`.',
    '',
    "/** The service's error codes, for `DnApiError.code`. */",
    'export const DN_ERROR_CODES = [',
    ...errorCodes.map((c) => `  ${literal(c)},`),
    '] as const',
    '',
    'export type DnErrorCode = (typeof DN_ERROR_CODES)[number]',
    '',
  ]
  for (const u of unions) {
    // a list too, for filters, menus and validation at run time
    out.push(`/** Every \`${u.component}.${u.property}\` */`)
    out.push(`export const ${u.constant} = [`)
    out.push(...u.values.map((v) => `  ${jsonLiteral(v)},`))
    out.push('] as const')
    out.push('')
    out.push(`export type ${u.name} = (typeof ${u.constant})[number]`)
    out.push('')
  }
  for (const name of responseComponents(doc)) {
    const schema = schemas[name]
    const named = (prop) =>
      unions.find((u) => u.component === name && u.property === prop)?.name
    const doc = describe(schema)
    if (doc) out.push(docComment(doc, '').trimEnd())
    const type = toType(schema, '', { unions, named })
    out.push(
      schema.type === 'object' && type.startsWith('{')
        ? `export interface ${name} ${type}`
        : `export type ${name} = ${type}`,
    )
    out.push('')
  }
  return `${out.join('\n').trimEnd()}\n`
}
