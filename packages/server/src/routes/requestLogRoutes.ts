import { EmptyQuery, listRequestLogs, RequestLogList } from '@dn/core'
import { bearerRead } from './bearerHandlers.js'
import { KEY_READ_ERRORS } from './errorCodeSets.js'
import { defineRoute } from './routeSpec.js'

const logs = {
  method: 'GET',
  tag: 'Request logs',
  auth: 'apiKey',
  idempotent: false,
  request: { query: EmptyQuery },
  success: { status: 200, schema: RequestLogList, description: 'Newest first' },
  errors: KEY_READ_ERRORS,
} as const

/** Strategy logs share the strategy budget; perp logs the perp budget. */
export const REQUEST_LOG_ROUTES = [
  defineRoute(
    {
      ...logs,
      path: '/v1/requests',
      operationId: 'listStrategyRequests',
      family: 'strategy',
      summary: "The current key's latest 100 strategy-route requests",
    },
    (env) =>
      bearerRead(env, async (key) => {
        await env.deps.requestLogs.flush()
        return listRequestLogs(env.deps.store, key, 'strategy')
      }),
  ),
  defineRoute(
    {
      ...logs,
      path: '/v1/perp/requests',
      operationId: 'listPerpRequests',
      family: 'perp',
      summary: "The current key's latest 100 direct-order requests",
    },
    (env) =>
      bearerRead(env, async (key) => {
        await env.deps.requestLogs.flush()
        return listRequestLogs(env.deps.store, key, 'perp')
      }),
  ),
]
