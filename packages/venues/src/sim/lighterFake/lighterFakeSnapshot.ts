import {
  type LighterFakeIntegrator,
  type LighterFakeOrder,
  type LighterFakeState,
  marketById,
} from './lighterFakeState.js'
import { isWaiting } from './lighterFakeTriggers.js'

type Entries<K, V> = readonly (readonly [K, V])[]

/** An order as saved: its market by id. */
type LighterFakeOrderSnapshot = Omit<LighterFakeOrder, 'market'> & {
  readonly marketId: number
}

/**
 * What the Lighter fake keeps beside the engine, as JSON: registered API
 * keys and their next nonces, the orders it placed (by order index and by
 * client order index; a stop-loss / take-profit with its `trigger`, so a
 * waiting one goes on waiting after a restore; snapshots from before
 * trigger orders have none and restore as they were) and integrator
 * approvals. Not kept: rate-limit
 * counters, verified auth tokens (verified again), stream subscriptions.
 */
export interface LighterFakeSnapshot {
  readonly keys: Entries<string, string>
  readonly nonces: Entries<string, number>
  readonly orders: readonly LighterFakeOrderSnapshot[]
  /** `account:clientOrderIndex` → order index */
  readonly byClientOrderIndex: Entries<string, number>
  readonly integrators: Entries<number, Entries<number, LighterFakeIntegrator>>
  readonly nextOrderIndex: number
  readonly nextPlain: number
}

export function lighterFakeToSnapshot(
  state: LighterFakeState,
): LighterFakeSnapshot {
  return {
    keys: [...state.keys],
    nonces: [...state.nonces],
    orders: [...state.ordersByIndex.values()].map(({ market, ...o }) => ({
      ...o,
      marketId: market.marketId,
    })),
    byClientOrderIndex: [...state.orders].map(([k, o]) => [k, o.orderIndex]),
    integrators: [...state.integrators].map(([a, m]) => [a, [...m]]),
    nextOrderIndex: state.nextOrderIndex,
    nextPlain: state.nextPlain,
  }
}

/** Puts a snapshot into a fresh fake state (orders on unlisted markets are dropped). */
export function restoreLighterFake(
  state: LighterFakeState,
  s: LighterFakeSnapshot,
): void {
  for (const [k, v] of s.keys) state.keys.set(k, v)
  for (const [k, v] of s.nonces) state.nonces.set(k, v)
  for (const { marketId, ...o } of s.orders) {
    const market = marketById(state, marketId)
    if (!market) continue
    const order = { ...o, market }
    state.ordersByIndex.set(o.orderIndex, order)
    if (isWaiting(order)) state.waitingTriggers.add(o.orderIndex)
  }
  for (const [k, index] of s.byClientOrderIndex) {
    const order = state.ordersByIndex.get(index)
    if (order) state.orders.set(k, order)
  }
  for (const [a, m] of s.integrators) state.integrators.set(a, new Map(m))
  state.nextOrderIndex = s.nextOrderIndex
  state.nextPlain = s.nextPlain
}
