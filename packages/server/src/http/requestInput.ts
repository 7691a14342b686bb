import { ListQuery, parseInput, ValidationError } from '@dn/core'
import type * as v from 'valibot'
import type { RequestContext } from '../router.js'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** A path id that must be a lowercase uuid, else 400 `invalid_path_id`. */
export function pathId(ctx: RequestContext, name: string): string {
  const value = ctx.params[name] ?? ''
  if (!UUID.test(value)) {
    throw new ValidationError(
      `${name} must be a lowercase uuid`,
      [{ path: name, message: 'must match the uuid pattern' }],
      'invalid_path_id',
    )
  }
  return value
}

const LIST_PARAMS = new Set(['limit', 'status', 'updatedSince', 'cursor'])

/** List query: known names only, each at most once, then the schema. */
export function listQuery(ctx: RequestContext): ListQuery {
  return parseInput(
    ListQuery,
    numericLimit(knownOnce(ctx, LIST_PARAMS)),
    'invalid_query',
  )
}

/**
 * A query of string parameters: the schema's names only (none for
 * `EmptyQuery`), each at most once, then the schema.
 */
export function queryInput<S extends v.GenericSchema>(
  ctx: RequestContext,
  schema: S,
): v.InferOutput<S> {
  const names = new Set(
    'entries' in schema ? Object.keys(schema.entries as object) : [],
  )
  return parseInput(
    schema,
    numericLimit(knownOnce(ctx, names)),
    'invalid_query',
  )
}

/** A `limit` of 1..4 digits is a number; anything else the schema refuses. */
function numericLimit(raw: Record<string, unknown>): Record<string, unknown> {
  if (typeof raw.limit === 'string' && /^\d{1,4}$/.test(raw.limit)) {
    raw.limit = Number(raw.limit)
  }
  return raw
}

function knownOnce(
  ctx: RequestContext,
  known: ReadonlySet<string>,
): Record<string, unknown> {
  const raw: Record<string, unknown> = {}
  for (const [name, value] of ctx.query) {
    if (!known.has(name)) {
      throw new ValidationError(
        `unknown query parameter "${name}"`,
        [{ path: name, message: 'unknown query parameter' }],
        'invalid_query',
      )
    }
    if (name in raw) {
      throw new ValidationError(
        `query parameter "${name}" is repeated`,
        [{ path: name, message: 'repeated query parameter' }],
        'invalid_query',
      )
    }
    raw[name] = value
  }
  return raw
}
