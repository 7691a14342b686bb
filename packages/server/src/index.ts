export { createRequestListener } from './createRequestListener.js'
export type { HttpResponse } from './http/httpResponse.js'
export { createJsonLogger, type Logger, silentLogger } from './logger.js'
export { buildOpenApiDocument } from './openapi/openApiDocument.js'
export {
  createRequestLogWriter,
  type RequestLogWriter,
} from './requestLogWriter.js'
export type { Route } from './router.js'
export type {
  RouteDeclaration,
  RouteSpec,
} from './routes/routeSpec.js'
export {
  type DeclaredRouteSpec,
  ROUTE_DECLARATIONS,
  ROUTE_SPECS,
  servedRoutes,
} from './routes/routeTable.js'
export type { ServerDeps } from './serverDeps.js'
export {
  type RunningServer,
  type ServerCloseReport,
  type StartHttpServerOptions,
  startHttpServer,
} from './startHttpServer.js'
