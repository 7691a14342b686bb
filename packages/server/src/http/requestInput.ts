import { ListQuery, parseInput, ValidationError } from '@dn/core'
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

/** Routes without query parameters refuse any. */
export function requireNoQuery(ctx: RequestContext): void {
  const names = [...ctx.query.keys()]
  if (names.length > 0) {
    throw new ValidationError(
      `unknown query parameter "${names[0]}"`,
      [{ path: names[0] as string, message: 'unknown query parameter' }],
      'invalid_query',
    )
  }
}

const LIST_PARAMS = new Set(['limit', 'status', 'updatedSince', 'cursor'])

/** List query: known names only, each at most once, then the schema. */
export function listQuery(ctx: RequestContext): ListQuery {
  const raw: Record<string, unknown> = {}
  for (const [name, value] of ctx.query) {
    if (!LIST_PARAMS.has(name)) {
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
    raw[name] =
      name === 'limit' && /^\d{1,4}$/.test(value) ? Number(value) : value
  }
  return parseInput(ListQuery, raw, 'invalid_query')
}
