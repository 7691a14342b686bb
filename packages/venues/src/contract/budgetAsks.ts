import type { RequestBudget, RequestPriority } from '@dn/core'

/**
 * `budget` as it is, noting the priority of each request it is asked to
 * let through in `asked`: what a test reads to see how urgently an adapter
 * sent a request.
 */
export function budgetAsks<B extends RequestBudget>(
  budget: B,
  asked: RequestPriority[],
): B {
  return {
    ...budget,
    acquire(charges, priority, options) {
      asked.push(priority)
      return budget.acquire(charges, priority, options)
    },
  }
}
