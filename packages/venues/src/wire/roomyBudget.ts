import { createRequestBudget, type RequestBudget } from '@dn/core'
import type { PublishedLimit } from './requestCharge.js'

/**
 * A budget with a venue's limits a thousand times over, for tests of a
 * protocol (not of its rate limits) that send faster than a real account
 * may: every request is still weighed and counted.
 */
export function roomyBudget(limits: readonly PublishedLimit[]): RequestBudget {
  return createRequestBudget({
    name: 'test',
    limits: limits.map((l) => ({ ...l, capacity: l.capacity * 1000 })),
    share: 1,
  })
}
