import type { Handler } from '../router.js'
import type { ServerDeps } from '../serverDeps.js'

/**
 * The facts of one page for people (an HTML page or an asset it loads).
 * Pages are served beside the routes but are not part of the JSON contract:
 * `/openapi.json` and the client know nothing of them.
 */
export interface PageSpec {
  readonly method: 'GET'
  /** a literal path: an unknown file under it is the router's 404 */
  readonly path: string
  readonly summary: string
  /** the `content-type` of a 200 */
  readonly contentType: string
}

/** One page: its facts and how to build its handler, once per server. */
export interface PageDeclaration<S extends PageSpec = PageSpec> {
  readonly spec: S
  readonly handler: (env: { readonly deps: ServerDeps }) => Handler
}

/**
 * Declares a page (served, not documented in `/openapi.json`).
 *
 * @example
 * definePage({ method: 'GET', path: '/docs', ... }, () => staticHandler(...))
 */
export function definePage<const S extends PageSpec>(
  spec: S,
  handler: (env: { readonly deps: ServerDeps; readonly page: S }) => Handler,
): PageDeclaration<S> {
  return {
    spec,
    handler: (env) => handler({ ...env, page: spec }),
  }
}
