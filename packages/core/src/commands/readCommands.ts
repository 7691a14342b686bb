import type { ApiKeyRecord } from '../domain/apiKey.js'
import { type PerpOrderView, perpOrderView } from '../domain/perpOrderView.js'
import type { RequestFamily } from '../domain/requestLog.js'
import {
  type RequestLogView,
  requestLogView,
} from '../domain/requestLogView.js'
import { TASK_HISTORY_LIMIT } from '../domain/taskSample.js'
import { type TaskView, taskView } from '../domain/taskView.js'
import type { Repos } from '../ports/store.js'
import type { TaskHistory, TaskHistoryQuery } from '../schemas/taskHistory.js'
import { type ListParameters, listPage } from './listPage.js'
import { ownedPerpOrder } from './ownedPerpOrder.js'
import { ownedTask } from './ownedTask.js'

/** Newest request logs kept (and shown) per key and family. */
export const REQUEST_LOG_KEEP = 100

export async function getTask(
  repos: Repos,
  key: ApiKeyRecord,
  taskId: string,
): Promise<{ task: TaskView }> {
  return { task: taskView(await ownedTask(repos, key, taskId, 'read')) }
}

/**
 * A task's history: the samples the worker's monitor took while it ran
 * (the newest `limit` at or after `since`, oldest first) and the close
 * rules it is watched against. Seen by whoever may read the task.
 */
export async function getTaskHistory(
  repos: Repos,
  key: ApiKeyRecord,
  taskId: string,
  query: TaskHistoryQuery,
): Promise<TaskHistory> {
  const task = await ownedTask(repos, key, taskId, 'read')
  const samples = await repos.taskSamples.list(task.id, {
    since: query.since,
    limit: query.limit ?? TASK_HISTORY_LIMIT,
  })
  return {
    taskId: task.id,
    rules: {
      autoClose: task.autoClose,
      minFundingApy: task.minFundingApy,
      fundingBelowSince: task.engineState?.fundingBelowSince ?? null,
      maxSpreadBps: task.maxSpreadBps,
      liqProtectionPct: task.liqProtectionPct,
      sizeMismatchPct: task.sizeMismatchPct,
    },
    samples: samples.map(({ taskId: _, ...sample }) => sample),
  }
}

/** The owner's tasks whose two venues are both granted by the key. */
export async function listTasks(
  repos: Repos,
  key: ApiKeyRecord,
  params: ListParameters,
): Promise<{ tasks: TaskView[]; nextCursor: string | null }> {
  const page = await listPage(
    (f) => repos.tasks.list(f),
    { owner: key.owner, venues: key.venues },
    params,
  )
  return { tasks: page.items.map(taskView), nextCursor: page.nextCursor }
}

export async function getPerpOrder(
  repos: Repos,
  key: ApiKeyRecord,
  orderId: string,
): Promise<{ order: PerpOrderView }> {
  return {
    order: perpOrderView(await ownedPerpOrder(repos, key, orderId, 'read')),
  }
}

/** The owner's orders on venues the key grants. */
export async function listPerpOrders(
  repos: Repos,
  key: ApiKeyRecord,
  params: ListParameters,
): Promise<{ orders: PerpOrderView[]; nextCursor: string | null }> {
  const page = await listPage(
    (f) => repos.orders.list(f),
    { owner: key.owner, venues: key.venues },
    params,
  )
  return { orders: page.items.map(perpOrderView), nextCursor: page.nextCursor }
}

export async function listRequestLogs(
  repos: Repos,
  key: ApiKeyRecord,
  family: RequestFamily,
): Promise<{ requests: RequestLogView[] }> {
  const rows = await repos.requestLogs.list(key.id, family, REQUEST_LOG_KEEP)
  return { requests: rows.map(requestLogView) }
}
