import type { ApiKeyRecord } from '../domain/apiKey.js'
import { ConflictError } from '../errors/domain.js'
import type { Repos } from '../ports/store.js'
import { msToIso } from '../util/time.js'
import type { CommandDeps } from './commandDeps.js'
import { ownedTask } from './ownedTask.js'

/** Cancels a task the worker has not started. Only `pending` qualifies. */
export async function cancelTask(
  tx: Repos,
  deps: Pick<CommandDeps, 'clock'>,
  key: ApiKeyRecord,
  taskId: string,
): Promise<{ taskId: string; status: 'cancelled' }> {
  const task = await ownedTask(tx, key, taskId, 'command')
  const updated =
    task.status === 'pending'
      ? await tx.tasks.update(
          taskId,
          { status: 'cancelled', updatedAt: msToIso(deps.clock.now()) },
          { status: ['pending'] },
        )
      : undefined
  if (!updated) {
    throw new ConflictError(
      'task_not_cancellable',
      `task is ${task.status}; only pending tasks can be cancelled (close a running task instead)`,
    )
  }
  return { taskId, status: 'cancelled' }
}
