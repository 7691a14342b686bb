import { ACTIVE_TASK_STATUSES } from '../domain/task.js'
import type { Store, WorkKind, WorkQueueDepth } from '../ports/store.js'
import { ACTIVE_BATCH_STATUSES } from './processBindingBatch.js'
import { ACTIVE_ORDER_STATUSES } from './processPerpOrder.js'

/** What waits for the workers now, read for metrics. */
export interface WorkQueueStats {
  /** per kind: due rows no worker holds, and the oldest one's due time */
  readonly queues: Readonly<Record<WorkKind, WorkQueueDepth>>
  readonly runningTasks: number
  readonly unknownOrders: number
}

/**
 * Reads the queues with the statuses the workers claim, so "due" here is
 * what the next claim would find (less what a live lease holds).
 */
export async function workQueueStats(
  store: Pick<Store, 'workQueue'>,
  now: string,
): Promise<WorkQueueStats> {
  const q = store.workQueue
  const [task, order, binding, runningTasks, unknownOrders] = await Promise.all(
    [
      q.depth('task', ACTIVE_TASK_STATUSES, now),
      q.depth('order', ACTIVE_ORDER_STATUSES, now),
      q.depth('binding', ACTIVE_BATCH_STATUSES, now),
      q.countByStatus('task', 'running'),
      q.countByStatus('order', 'unknown'),
    ],
  )
  return { queues: { task, order, binding }, runningTasks, unknownOrders }
}
