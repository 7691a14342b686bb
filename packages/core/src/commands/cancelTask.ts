import type { ApiKeyRecord } from '../domain/apiKey.js'
import { ConflictError } from '../errors/domain.js'
import type { Repos } from '../ports/store.js'
import { dec } from '../util/decimal.js'
import { msToIso } from '../util/time.js'
import type { CommandDeps } from './commandDeps.js'
import { ownedTask } from './ownedTask.js'

/**
 * Cancels a task the worker has not started: `pending`, with no opening
 * operation in flight and no leg filled. The write is guarded on all
 * three, so it cannot land between a worker saving its opening orders
 * and sending them, nor while an opening's filled leg waits to be unwound.
 */
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
          { status: ['pending'], idle: true, unbooked: true },
        )
      : undefined
  if (!updated) {
    const now = (await tx.tasks.get(taskId)) ?? task
    const booked = [now.longSize, now.shortSize].some(
      (size) => size !== null && !dec(size).isZero(),
    )
    throw new ConflictError(
      'task_not_cancellable',
      now.status !== 'pending'
        ? `task is ${now.status}; only pending tasks can be cancelled (close a running task instead)`
        : booked
          ? 'task is unwinding: its opening filled one leg only, which is being closed; it ends failed once that leg is flat'
          : 'task is opening: its orders are being sent to the venues, so it can no longer be cancelled; close it once it is running',
    )
  }
  return { taskId, status: 'cancelled' }
}
