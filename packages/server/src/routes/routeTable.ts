import type { Route } from '../router.js'
import type { ServerDeps } from '../serverDeps.js'
import { ACCOUNT_ROUTES } from './accountRoutes.js'
import { API_KEY_ROUTES } from './apiKeyRoutes.js'
import { BIND_PAGES } from './bindPages.js'
import { DASHBOARD_PAGES } from './dashboardPages.js'
import { DOCS_PAGES } from './docsPages.js'
import { MARKET_ROUTES } from './marketRoutes.js'
import { METRICS_PAGE } from './metricsPage.js'
import type { PageDeclaration } from './pageSpec.js'
import { PERP_ORDER_ROUTES } from './perpOrderRoutes.js'
import { REQUEST_LOG_ROUTES } from './requestLogRoutes.js'
import type { RouteDeclaration, RouteSpec } from './routeSpec.js'
import { SERVICE_ROUTES } from './serviceRoutes.js'
import { TASK_ROUTES } from './taskRoutes.js'
import { VENUE_BINDING_ROUTES } from './venueBindingRoutes.js'

/**
 * Every route the service serves, in document order. The router, the
 * OpenAPI document and the served-routes test are all built from this list.
 */
export const ROUTE_DECLARATIONS = [
  ...SERVICE_ROUTES,
  ...TASK_ROUTES,
  ...REQUEST_LOG_ROUTES,
  ...PERP_ORDER_ROUTES,
  ...MARKET_ROUTES,
  ...ACCOUNT_ROUTES,
  ...VENUE_BINDING_ROUTES,
  ...API_KEY_ROUTES,
] as const

/** The spec of every declared route, literal types kept (for type tests). */
export type DeclaredRouteSpec = (typeof ROUTE_DECLARATIONS)[number]['spec']

/** The facts of every route (what the OpenAPI document describes). */
export const ROUTE_SPECS: readonly RouteSpec[] = ROUTE_DECLARATIONS.map(
  (r) => r.spec,
)

/**
 * Pages for people, served beside the routes but outside the contract:
 * `/openapi.json` and the client do not list them.
 */
export const PAGE_DECLARATIONS: readonly PageDeclaration[] = [
  ...DOCS_PAGES,
  ...BIND_PAGES,
  ...DASHBOARD_PAGES,
  METRICS_PAGE,
]

/**
 * The router's view: each route and page declaration with its handler
 * built for `deps`.
 */
export function servedRoutes(
  deps: ServerDeps,
  declarations: readonly RouteDeclaration[] = ROUTE_DECLARATIONS,
  pages: readonly PageDeclaration[] = PAGE_DECLARATIONS,
): Route[] {
  const routes = declarations.map((d) => d.spec)
  return [
    ...declarations.map((d) => ({
      method: d.spec.method,
      pattern: d.spec.path,
      handler: d.handler({ deps, route: d.spec, routes }),
    })),
    ...pages.map((p) => ({
      method: p.spec.method,
      pattern: p.spec.path,
      handler: p.handler({ deps }),
    })),
  ]
}
