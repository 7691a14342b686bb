import { type Page, paginate } from './paginate.js'
import { pollUntil, type WaitOptions } from './pollUntil.js'
import type { Transport } from './transport.js'
import type {
  CreateTask,
  ListQuery,
  ResizeTask,
  Task,
  TaskHistory,
  TaskList,
  TaskStatus,
} from './types.js'

const TASKS = '/v1/delta-neutral/tasks'

/** States a task never leaves by itself. */
const TASK_FINAL: readonly TaskStatus[] = ['closed', 'cancelled', 'failed']

/**
 * What `waitFor` waits for unless told: running. A task that ends instead
 * (failed, cancelled, or closed before it was seen running) did not do
 * what its creator waited for: DnWaitError, never a quiet success.
 */
const TASK_SETTLED = ['running'] as const
type TaskSettled = (typeof TASK_SETTLED)[number]

/** The statuses a task wait resolves with, for `until: U`. */
export type TaskWaitOptions<U extends TaskStatus = TaskStatus> = WaitOptions<
  TaskStatus,
  U,
  Task
>

/** `client.tasks`: paired positions. */
export function createTaskApi(request: Transport) {
  const page = (q: ListQuery<TaskStatus> = {}) =>
    request<TaskList>('GET', TASKS, { query: { ...q } })
  const get = (taskId: string, signal?: AbortSignal) =>
    request<{ task: Task }>('GET', `${TASKS}/${taskId}`, { signal }).then(
      (r) => r.task,
    )
  return {
    /** One page, newest first; pass `nextCursor` back as `cursor`. */
    page,
    /**
     * Every task matching `q`, page after page (`limit` is the page size).
     * @example for await (const t of client.tasks.list({ status: 'running' }))
     */
    list: (
      q: Omit<ListQuery<TaskStatus>, 'cursor'> = {},
    ): AsyncIterable<Task> =>
      paginate(
        (cursor): Promise<Page<Task>> =>
          page({ ...q, cursor }).then((r) => ({
            items: r.tasks,
            nextCursor: r.nextCursor,
          })),
      ),
    get: (taskId: string) => get(taskId),
    /**
     * The task's funding and PnL over time (the newest `limit` samples at
     * or after `since`, oldest first) and its close rules.
     * @example const { samples } = await client.tasks.history(id, { limit: 60 })
     */
    history: (taskId: string, q: { since?: string; limit?: number } = {}) =>
      request<TaskHistory>('GET', `${TASKS}/${taskId}/history`, {
        query: { since: q.since, limit: q.limit },
      }),
    create: (body: CreateTask, idempotencyKey?: string) =>
      request<{ taskId: string; status: 'pending' }>('POST', TASKS, {
        body,
        idempotencyKey,
      }),
    cancel: (taskId: string, idempotencyKey?: string) =>
      request<{ taskId: string; status: 'cancelled' }>(
        'POST',
        `${TASKS}/${taskId}/cancel`,
        { idempotencyKey },
      ),
    close: (taskId: string, idempotencyKey?: string) =>
      request<{ taskId: string; status: 'close_queued' }>(
        'POST',
        `${TASKS}/${taskId}/close`,
        { idempotencyKey },
      ),
    resize: (taskId: string, body: ResizeTask, idempotencyKey?: string) =>
      request<{ taskId: string; status: 'resizing' }>(
        'POST',
        `${TASKS}/${taskId}/resize`,
        { body, idempotencyKey },
      ),
    /**
     * Polls until the task's status is one of `until` (default: running).
     * Throws DnWaitError as soon as the task ends in a status not awaited
     * (a task that closed before it was seen running too), DnTimeoutError
     * after `timeoutMs`.
     */
    waitFor: <U extends TaskStatus = TaskSettled>(
      taskId: string,
      w: TaskWaitOptions<U> = {},
    ): Promise<Task & { status: U }> =>
      pollUntil<Task, TaskStatus>(
        {
          label: `task ${taskId}`,
          read: (signal) => get(taskId, signal),
          status: (t) => t.status,
          isFinal: (t) => TASK_FINAL.includes(t.status),
          detail: (t) =>
            t.error
              ? `error: ${t.error}`
              : t.closeReason
                ? `closeReason: ${t.closeReason}`
                : undefined,
        },
        TASK_SETTLED,
        w,
      ) as Promise<Task & { status: U }>,
  }
}
