import type { ApiKeyRecord } from '../domain/apiKey.js'
import type { PerpOrderStatus } from '../domain/perpOrder.js'
import { ConflictError } from '../errors/domain.js'
import type { Repos } from '../ports/store.js'
import { msToIso } from '../util/time.js'
import type { CommandDeps } from './commandDeps.js'
import { ownedPerpOrder } from './ownedPerpOrder.js'

const SUBMITTED: readonly PerpOrderStatus[] = [
  'submitting',
  'open',
  'partially_filled',
  'unknown',
]

/**
 * A pending order is cancelled here and now. A submitted one gets a queued
 * venue cancel (`cancel_queued`); its fills stay, and its position is not
 * closed.
 */
export async function cancelPerpOrder(
  tx: Repos,
  deps: Pick<CommandDeps, 'clock'>,
  key: ApiKeyRecord,
  orderId: string,
): Promise<{ orderId: string; status: 'cancelled' | 'cancel_queued' }> {
  const order = await ownedPerpOrder(tx, key, orderId, 'command')
  const now = msToIso(deps.clock.now())
  if (order.status === 'pending') {
    const done = await tx.orders.update(
      orderId,
      { status: 'cancelled', cancelRequestedAt: now, updatedAt: now },
      { status: ['pending'] },
    )
    if (done) return { orderId, status: 'cancelled' }
  } else if (SUBMITTED.includes(order.status)) {
    if (order.cancelRequestedAt !== null)
      return { orderId, status: 'cancel_queued' }
    const queued = await tx.orders.update(
      orderId,
      // due now: the worker cancels at the venue on its next round
      { cancelRequestedAt: now, nextCheckAt: null, updatedAt: now },
      { status: SUBMITTED },
    )
    if (queued) return { orderId, status: 'cancel_queued' }
  }
  throw new ConflictError(
    'order_not_cancellable',
    `order is ${order.status}; only pending or live orders can be cancelled`,
  )
}
