import type { ApiKeyRecord } from '../domain/apiKey.js'
import type { OrderResolution, PerpOrderRecord } from '../domain/perpOrder.js'
import { ConflictError, UnavailableError } from '../errors/domain.js'
import type { Repos } from '../ports/store.js'
import { dec, decString } from '../util/decimal.js'
import { msToIso } from '../util/time.js'
import type { CommandDeps } from './commandDeps.js'
import { ownedPerpOrder } from './ownedPerpOrder.js'

export interface ResolvePerpOrderParameters {
  readonly status: 'filled' | 'cancelled' | 'expired' | 'rejected'
  readonly filledBase: number
  readonly averagePrice: number | null
  readonly evidence: string
  readonly confirmNoOpenOrder: true
  readonly confirmWorkersStopped: true
}

function requireResolvable(order: PerpOrderRecord, nowMs: number): void {
  if (order.status !== 'unknown') {
    throw new ConflictError(
      'order_not_unknown',
      `order is ${order.status}; only unknown orders can be resolved`,
    )
  }
  if (Date.parse(order.expiresAt) > nowMs) {
    throw new ConflictError(
      'order_not_expired',
      `order expires at ${order.expiresAt}; resolve is allowed only after expiry`,
    )
  }
  if (
    order.leaseExpiresAt !== null &&
    Date.parse(order.leaseExpiresAt) > nowMs
  ) {
    throw new ConflictError(
      'order_lease_active',
      'a worker holds this order; stop all workers and run `dn worker fence` first',
    )
  }
}

/**
 * Checks outside the transaction: the order is an expired `unknown` one, no
 * lease is active, every worker is fenced, and the venue confirms the order
 * is not live. The venue check needs I/O so it cannot sit in the transaction.
 */
export async function prepareResolvePerpOrder(
  deps: Pick<CommandDeps, 'store' | 'clock' | 'venueOrders'>,
  key: ApiKeyRecord,
  orderId: string,
): Promise<void> {
  const order = await ownedPerpOrder(deps.store, key, orderId, 'command')
  requireResolvable(order, deps.clock.now())
  const workers = await deps.store.workers.list()
  const live = workers.filter((w) => w.fencedAt === null)
  if (live.length > 0) {
    throw new ConflictError(
      'workers_not_fenced',
      `${live.length} worker(s) are not fenced; stop them and run \`dn worker fence\``,
    )
  }
  if (!deps.venueOrders) {
    throw new UnavailableError(
      'venue_check_unavailable',
      'no venue connection is configured to verify the order is not live',
    )
  }
  let isLive: boolean
  try {
    isLive = await deps.venueOrders.isLive(order)
  } catch (cause) {
    throw new UnavailableError(
      'venue_check_unavailable',
      'the venue could not be asked whether the order is live; retry later',
      { cause },
    )
  }
  if (isLive) {
    throw new ConflictError(
      'venue_order_live',
      'the venue still shows this order as live; cancel it there or wait',
    )
  }
}

/** Records the operator's attestation and the final state, permanently. */
export async function resolvePerpOrder(
  tx: Repos,
  deps: Pick<CommandDeps, 'clock'>,
  key: ApiKeyRecord,
  orderId: string,
  params: ResolvePerpOrderParameters,
): Promise<{ orderId: string; status: string; resolution: OrderResolution }> {
  const order = await ownedPerpOrder(tx, key, orderId, 'command')
  const nowMs = deps.clock.now()
  requireResolvable(order, nowMs)
  if (dec(params.filledBase).lt(order.filledBase)) {
    throw new ConflictError(
      'filled_base_decrease',
      `filledBase ${decString(params.filledBase)} is below the ${order.filledBase} already recorded; it is the total including earlier fills`,
    )
  }
  const now = msToIso(nowMs)
  const resolution: OrderResolution = {
    status: params.status,
    filledBase: decString(params.filledBase),
    averagePrice:
      params.averagePrice === null ? null : decString(params.averagePrice),
    evidence: params.evidence,
    confirmNoOpenOrder: true,
    confirmWorkersStopped: true,
    prior: {
      status: order.status,
      filledBase: order.filledBase,
      averagePrice: order.averagePrice,
    },
    actorKeyId: key.id,
    resolvedAt: now,
  }
  const updated = await tx.orders.update(
    orderId,
    {
      status: params.status,
      filledBase: resolution.filledBase,
      averagePrice: resolution.averagePrice,
      resolution,
      updatedAt: now,
    },
    { status: ['unknown'], fence: order.fence },
  )
  if (!updated) {
    throw new ConflictError(
      'order_not_unknown',
      'the order changed while resolving; read it and retry',
    )
  }
  return { orderId, status: params.status, resolution }
}
