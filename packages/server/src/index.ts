export { createRequestListener } from './createRequestListener.js'
export type { HttpResponse } from './http/httpResponse.js'
export {
  type CreateLoggerOptions,
  createLogger,
  LOG_LEVELS,
  type LogDestination,
  type Logger,
  type LogLevel,
  silentLogger,
} from './logger.js'
export {
  createDnMetrics,
  type DnMetrics,
} from './metrics/createDnMetrics.js'
export { meteredFetch } from './metrics/meteredFetch.js'
export {
  type RunningMetricsServer,
  type StartMetricsServerOptions,
  startMetricsServer,
} from './metrics/startMetricsServer.js'
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
