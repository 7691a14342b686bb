import type { ApiKeyRecord } from '../domain/apiKey.js'
import type { TaskRecord } from '../domain/task.js'
import { NotFoundError } from '../errors/domain.js'
import type { Repos } from '../ports/store.js'
import { grants, requireVenueGrant } from './accessChecks.js'

/**
 * Loads a task the key may see. Another owner's task is a 404 (it does not
 * exist for this caller). For reads, a task on venues the key does not grant
 * is a 404 too, matching the list; for commands it is a 403.
 */
export async function ownedTask(
  repos: Pick<Repos, 'tasks'>,
  key: ApiKeyRecord,
  taskId: string,
  mode: 'read' | 'command',
): Promise<TaskRecord> {
  const task = await repos.tasks.get(taskId)
  const venues = task ? [task.longVenue, task.shortVenue] : []
  if (
    !task ||
    task.owner !== key.owner ||
    (mode === 'read' && !grants(key, venues))
  ) {
    throw new NotFoundError('task_not_found', `task ${taskId} not found`)
  }
  if (mode === 'command') requireVenueGrant(key, venues)
  return task
}
