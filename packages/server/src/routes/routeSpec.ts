import type { DnErrorCode, ErrorCodeOf, RequestFamily } from '@dn/core'
import type * as v from 'valibot'
import type { Handler } from '../router.js'
import type { ServerDeps } from '../serverDeps.js'

/** Any valibot schema a route may name. */
export type RouteSchema = v.GenericSchema

/** How a route authenticates its caller. */
export type RouteAuth = 'apiKey' | 'wallet' | 'none'

/** The OpenAPI tag a route is listed under. */
export type RouteTag =
  | 'Service'
  | 'Tasks'
  | 'Request logs'
  | 'Perpetual orders'
  | 'Markets'
  | 'Accounts'
  | 'Venue bindings'
  | 'API keys'

/**
 * The facts of one route. The router, `GET /openapi.json`, the served-routes
 * test and the request parsing all read them from here.
 */
export interface RouteSpec {
  readonly method: 'GET' | 'POST'
  /** OpenAPI path; every `{param}` is a lowercase uuid */
  readonly path: string
  readonly operationId: string
  readonly summary: string
  readonly tag: RouteTag
  readonly auth: RouteAuth
  /** Bearer routes: the per-key rate budget and request log they use */
  readonly family?: RequestFamily
  /** Bearer commands: the request-log action (reads are not logged) */
  readonly action?: string
  /**
   * Parsed before the handler runs, in this order: path ids, query (absent:
   * not checked; `EmptyQuery`: none allowed), headers, JSON body.
   */
  readonly request?: {
    readonly body?: RouteSchema
    readonly query?: RouteSchema
    readonly headers?: RouteSchema
  }
  /** the code of an invalid body @default 'invalid_body' */
  readonly invalidBodyCode?: ErrorCodeOf<400>
  /** true when the `Idempotency-Key` header is required */
  readonly idempotent: boolean
  readonly success: {
    readonly status: number
    readonly schema: RouteSchema
    readonly description: string
  }
  /** error codes the route may answer; its error statuses are theirs */
  readonly errors: readonly DnErrorCode[]
  /** statuses the contract lists that no code answers today */
  readonly reservedStatuses?: readonly number[]
  /** schemas this route adds to `components.schemas`, by name */
  readonly components?: Readonly<Record<string, RouteSchema>>
}

/** What a route's handler is built from, once per server. */
export interface RouteEnv<S extends RouteSpec = RouteSpec> {
  readonly deps: ServerDeps
  readonly route: S
  /** every declared route (the OpenAPI document is built from them) */
  readonly routes: readonly RouteSpec[]
}

/** One route: its facts (literal types kept) and how to build its handler. */
export interface RouteDeclaration<S extends RouteSpec = RouteSpec> {
  readonly spec: S
  readonly handler: (env: RouteEnv) => Handler
}

/**
 * Declares a route. The handler sees the spec's literal types, so its parsed
 * input is typed from the declared schemas.
 *
 * @example
 * defineRoute({ method: 'GET', path: '/health', ... }, () => async () => json(200, { ok: true }))
 */
export function defineRoute<const S extends RouteSpec>(
  spec: S,
  handler: (env: RouteEnv<S>) => Handler,
): RouteDeclaration<S> {
  // the table hands each handler its own spec, so the cast is exact
  return { spec, handler: handler as (env: RouteEnv) => Handler }
}
