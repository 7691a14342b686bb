import type { ApiKeyRecord } from '../domain/apiKey.js'
import type { PerpOrderRecord } from '../domain/perpOrder.js'
import { NotFoundError } from '../errors/domain.js'
import type { Repos } from '../ports/store.js'
import { grants, requireVenueGrant } from './accessChecks.js'

/** Like ownedTask: other owners' orders are 404; ungranted venue 404/403. */
export async function ownedPerpOrder(
  repos: Pick<Repos, 'orders'>,
  key: ApiKeyRecord,
  orderId: string,
  mode: 'read' | 'command',
): Promise<PerpOrderRecord> {
  const order = await repos.orders.get(orderId)
  if (
    !order ||
    order.owner !== key.owner ||
    (mode === 'read' && !grants(key, [order.venue]))
  ) {
    throw new NotFoundError('order_not_found', `order ${orderId} not found`)
  }
  if (mode === 'command') requireVenueGrant(key, [order.venue])
  return order
}
