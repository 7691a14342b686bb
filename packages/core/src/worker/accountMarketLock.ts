import type { NamedLock, OrderOnMarket } from '../ports/store.js'

/**
 * The lock one owner's operations on one venue market take: a direct
 * order and a task leg on the same account and market never run at once
 * (their fills would be read as each other's).
 */
export function accountMarketLock(
  owner: string,
  venue: string,
  market: string,
): string {
  return `${owner}|${venue}|${market}`
}

/**
 * Who holds an account-market lock: one work item of one worker (two
 * items of one worker must not share it), named so a dead worker's locks
 * can be found by `workerLocksPrefix`.
 */
export function lockHolder(
  workerId: string,
  kind: 'order' | 'task',
  id: string,
): string {
  return `${workerLocksPrefix(workerId)}${kind}|${id}`
}

/** What every lock holder of `workerId` starts with. */
export function workerLocksPrefix(workerId: string): string {
  return `${workerId}|`
}

/**
 * The lock a direct order's submission holds, and its holder: taken with
 * the order's claim where it is free, else by its step.
 */
export function orderLock(workerId: string, order: OrderOnMarket): NamedLock {
  return {
    name: accountMarketLock(order.owner, order.venue, order.market),
    holder: lockHolder(workerId, 'order', order.id),
  }
}
