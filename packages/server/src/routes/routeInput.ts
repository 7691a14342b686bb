import { ListQuery, parseInput } from '@dn/core'
import type * as v from 'valibot'
import { readJsonBody } from '../http/readJsonBody.js'
import { listQuery, pathId, queryInput } from '../http/requestInput.js'
import type { RequestContext } from '../router.js'
import type { RouteSchema, RouteSpec } from './routeSpec.js'

type Part<
  S extends RouteSpec,
  K extends 'body' | 'query' | 'headers',
> = S['request'] extends { readonly [P in K]: infer X extends RouteSchema }
  ? v.InferOutput<X>
  : undefined

/** A request as its route declared it, parsed. */
export interface RouteInput<S extends RouteSpec> {
  readonly params: Readonly<Record<string, string>>
  readonly query: Part<S, 'query'>
  readonly headers: Part<S, 'headers'>
  readonly body: Part<S, 'body'>
  /** the JSON body as sent (the idempotency fingerprint is taken of it) */
  readonly raw: unknown
}

/**
 * Parses path ids, query, headers and body by the route's schemas, in that
 * order, so the first problem reported is the same on every route.
 */
export async function routeInput<S extends RouteSpec>(
  ctx: RequestContext,
  route: S,
): Promise<RouteInput<S>> {
  const params: Record<string, string> = {}
  for (const [, name] of route.path.matchAll(/\{([A-Za-z]+)\}/g)) {
    params[name as string] = pathId(ctx, name as string)
  }
  const r = route.request
  const query =
    r?.query === undefined
      ? undefined
      : r.query === ListQuery
        ? listQuery(ctx)
        : queryInput(ctx, r.query)
  const headers =
    r?.headers === undefined
      ? undefined
      : parseInput(r.headers, ctx.req.headers, 'invalid_wallet_headers')
  let raw: unknown
  let body: unknown
  if (r?.body !== undefined) {
    raw = await readJsonBody(ctx.req)
    body = parseInput(r.body, raw, route.invalidBodyCode ?? 'invalid_body')
  }
  return { params, query, headers, body, raw } as RouteInput<S>
}
