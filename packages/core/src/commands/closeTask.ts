import type { ApiKeyRecord } from '../domain/apiKey.js'
import {
  closeStopped,
  type TaskEngineState,
} from '../domain/taskEngineState.js'
import { ConflictError } from '../errors/domain.js'
import type { Repos } from '../ports/store.js'
import { msToIso } from '../util/time.js'
import type { CommandDeps } from './commandDeps.js'
import { ownedTask } from './ownedTask.js'

/**
 * Queues a close durably (`closeRequestedAt`). It waits for an operation in
 * progress (a resize) and blocks new ones; the worker then closes both legs.
 * Closing an already queued task acknowledges again without change; a
 * close that stopped on the venues' refusals (`closeStopped`) is tried anew.
 */
export async function closeTask(
  tx: Repos,
  deps: Pick<CommandDeps, 'clock'>,
  key: ApiKeyRecord,
  taskId: string,
): Promise<{ taskId: string; status: 'close_queued' }> {
  const task = await ownedTask(tx, key, taskId, 'command')
  const now = msToIso(deps.clock.now())
  if (task.status === 'closing' && closeStopped(task.engineState)) {
    // a close the venues refused CLOSE_REFUSALS_MAX times: tried anew
    const rearmed = await tx.tasks.update(
      taskId,
      {
        closeRequestedAt: task.closeRequestedAt ?? now,
        nextCheckAt: now,
        engineState: {
          ...(task.engineState as TaskEngineState),
          closeRefusals: 0,
          closeFailures: 0,
        },
        updatedAt: now,
      },
      { status: ['closing'], idle: true },
    )
    if (rearmed) return { taskId, status: 'close_queued' }
  }
  if (task.closeRequestedAt !== null && task.status !== 'closed') {
    return { taskId, status: 'close_queued' }
  }
  const updated =
    task.status === 'running' || task.status === 'resizing'
      ? await tx.tasks.update(
          taskId,
          { closeRequestedAt: now, nextCheckAt: null, updatedAt: now },
          { status: ['running', 'resizing'] },
        )
      : undefined
  if (!updated) {
    throw new ConflictError(
      'task_not_running',
      task.status === 'pending'
        ? 'task is pending; cancel it instead of closing'
        : `task is ${task.status}; only running tasks can be closed`,
    )
  }
  return { taskId, status: 'close_queued' }
}
