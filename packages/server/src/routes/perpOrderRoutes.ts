import {
  CreatePerpOrderBody,
  cancelPerpOrder,
  createPerpOrder,
  getPerpOrder,
  listPerpOrders,
  parseInput,
  preparePerpOrder,
  prepareResolvePerpOrder,
  ResolvePerpOrderBody,
  resolvePerpOrder,
} from '@dn/core'
import { emptyBodyCommand } from '../http/emptyBodyCommand.js'
import { json } from '../http/httpResponse.js'
import { idempotentCommand } from '../http/idempotentCommand.js'
import { readJsonBody } from '../http/readJsonBody.js'
import { listQuery, pathId, requireNoQuery } from '../http/requestInput.js'
import { withApiKey } from '../http/withApiKey.js'
import type { Route } from '../router.js'
import type { ServerDeps } from '../serverDeps.js'

const BASE = '/v1/perp/orders'
const answer = (status: number, body: unknown) => ({
  status,
  body: JSON.stringify(body),
})

export function perpOrderRoutes(deps: ServerDeps): Route[] {
  return [
    {
      method: 'GET',
      pattern: BASE,
      handler: withApiKey(deps, 'perp', null, async (ctx, key) =>
        json(200, await listPerpOrders(deps.store, key, listQuery(ctx))),
      ),
    },
    {
      method: 'POST',
      pattern: BASE,
      handler: withApiKey(deps, 'perp', 'order.create', async (ctx, key) => {
        requireNoQuery(ctx)
        const body = await readJsonBody(ctx.req)
        const input = parseInput(CreatePerpOrderBody, body, 'invalid_body')
        return idempotentCommand(deps, ctx, `owner:${key.owner}`, body, {
          prepare: () => preparePerpOrder(deps, key, input),
          run: async (tx, prepared) => {
            const order = await createPerpOrder(tx, deps, key, prepared)
            return answer(202, { orderId: order.id, status: 'pending' })
          },
        })
      }),
    },
    {
      method: 'GET',
      pattern: `${BASE}/{orderId}`,
      handler: withApiKey(deps, 'perp', null, async (ctx, key) => {
        const orderId = pathId(ctx, 'orderId')
        requireNoQuery(ctx)
        return json(200, await getPerpOrder(deps.store, key, orderId))
      }),
    },
    {
      method: 'POST',
      pattern: `${BASE}/{orderId}/cancel`,
      handler: emptyBodyCommand(
        deps,
        'perp',
        'order.cancel',
        'orderId',
        (tx, key, id) => cancelPerpOrder(tx, deps, key, id),
      ),
    },
    {
      method: 'POST',
      pattern: `${BASE}/{orderId}/resolve`,
      handler: withApiKey(deps, 'perp', 'order.resolve', async (ctx, key) => {
        const orderId = pathId(ctx, 'orderId')
        requireNoQuery(ctx)
        const body = await readJsonBody(ctx.req)
        const input = parseInput(ResolvePerpOrderBody, body, 'invalid_body')
        return idempotentCommand(deps, ctx, `owner:${key.owner}`, body, {
          prepare: () => prepareResolvePerpOrder(deps, key, orderId),
          run: async (tx) =>
            answer(200, await resolvePerpOrder(tx, deps, key, orderId, input)),
        })
      }),
    },
  ]
}
