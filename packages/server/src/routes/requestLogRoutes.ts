import { listRequestLogs } from '@dn/core'
import { json } from '../http/httpResponse.js'
import { requireNoQuery } from '../http/requestInput.js'
import { withApiKey } from '../http/withApiKey.js'
import type { Route } from '../router.js'
import type { ServerDeps } from '../serverDeps.js'

/** Strategy logs share the strategy budget; perp logs the perp budget. */
export function requestLogRoutes(deps: ServerDeps): Route[] {
  return [
    {
      method: 'GET',
      pattern: '/v1/requests',
      handler: withApiKey(deps, 'strategy', null, async (ctx, key) => {
        requireNoQuery(ctx)
        await deps.requestLogs.flush()
        return json(200, await listRequestLogs(deps.store, key, 'strategy'))
      }),
    },
    {
      method: 'GET',
      pattern: '/v1/perp/requests',
      handler: withApiKey(deps, 'perp', null, async (ctx, key) => {
        requireNoQuery(ctx)
        await deps.requestLogs.flush()
        return json(200, await listRequestLogs(deps.store, key, 'perp'))
      }),
    },
  ]
}
