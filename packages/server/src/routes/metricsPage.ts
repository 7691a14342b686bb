import { NotFoundError, UnauthorizedError } from '@dn/core'
import { metricsAuthorized } from '../metrics/metricsAuthorized.js'
import { definePage } from './pageSpec.js'

/**
 * `/metrics`: Prometheus' text format, outside the JSON contract (not in
 * `/openapi.json`). Open unless `DN_METRICS_TOKEN` is set; 404 in a
 * server composed without metrics.
 */
export const METRICS_PAGE = definePage(
  {
    method: 'GET',
    path: '/metrics',
    summary: 'Prometheus metrics of this process (text exposition format)',
    contentType: 'text/plain; version=0.0.4; charset=utf-8',
  },
  ({ deps }) =>
    async (ctx) => {
      const { metrics } = deps
      if (!metrics) {
        throw new NotFoundError('route_not_found', 'no route GET /metrics')
      }
      if (
        !metricsAuthorized(ctx.req.headers.authorization, deps.metricsToken)
      ) {
        throw new UnauthorizedError(
          'unauthorized',
          'metrics need Authorization: Bearer <DN_METRICS_TOKEN>',
        )
      }
      const { contentType, text } = await metrics.render()
      return {
        status: 200,
        body: null,
        text,
        headers: { 'content-type': contentType },
      }
    },
)
