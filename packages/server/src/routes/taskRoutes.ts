import {
  CreateTaskBody,
  cancelTask,
  closeTask,
  createTask,
  getTask,
  listTasks,
  parseInput,
  prepareCreateTask,
  prepareResizeTask,
  ResizeTaskBody,
  resizeTask,
} from '@dn/core'
import { emptyBodyCommand } from '../http/emptyBodyCommand.js'
import { json } from '../http/httpResponse.js'
import { idempotentCommand } from '../http/idempotentCommand.js'
import { readJsonBody } from '../http/readJsonBody.js'
import { listQuery, pathId, requireNoQuery } from '../http/requestInput.js'
import { withApiKey } from '../http/withApiKey.js'
import type { Route } from '../router.js'
import type { ServerDeps } from '../serverDeps.js'

const BASE = '/v1/delta-neutral/tasks'
const ack = (body: unknown) => ({ status: 202, body: JSON.stringify(body) })

export function taskRoutes(deps: ServerDeps): Route[] {
  return [
    {
      method: 'GET',
      pattern: BASE,
      handler: withApiKey(deps, 'strategy', null, async (ctx, key) =>
        json(200, await listTasks(deps.store, key, listQuery(ctx))),
      ),
    },
    {
      method: 'POST',
      pattern: BASE,
      handler: withApiKey(deps, 'strategy', 'task.create', async (ctx, key) => {
        requireNoQuery(ctx)
        const body = await readJsonBody(ctx.req)
        const input = parseInput(CreateTaskBody, body, 'invalid_body')
        return idempotentCommand(deps, ctx, `owner:${key.owner}`, body, {
          prepare: () => prepareCreateTask(deps, key, input),
          run: async (tx, prepared) => {
            const task = await createTask(tx, deps, key, prepared)
            return ack({ taskId: task.id, status: 'pending' })
          },
        })
      }),
    },
    {
      method: 'GET',
      pattern: `${BASE}/{taskId}`,
      handler: withApiKey(deps, 'strategy', null, async (ctx, key) => {
        const taskId = pathId(ctx, 'taskId')
        requireNoQuery(ctx)
        return json(200, await getTask(deps.store, key, taskId))
      }),
    },
    {
      method: 'POST',
      pattern: `${BASE}/{taskId}/cancel`,
      handler: emptyBodyCommand(
        deps,
        'strategy',
        'task.cancel',
        'taskId',
        (tx, key, id) => cancelTask(tx, deps, key, id),
      ),
    },
    {
      method: 'POST',
      pattern: `${BASE}/{taskId}/close`,
      handler: emptyBodyCommand(
        deps,
        'strategy',
        'task.close',
        'taskId',
        (tx, key, id) => closeTask(tx, deps, key, id),
      ),
    },
    {
      method: 'POST',
      pattern: `${BASE}/{taskId}/resize`,
      handler: withApiKey(deps, 'strategy', 'task.resize', async (ctx, key) => {
        const taskId = pathId(ctx, 'taskId')
        requireNoQuery(ctx)
        const body = await readJsonBody(ctx.req)
        const input = parseInput(ResizeTaskBody, body, 'invalid_body')
        return idempotentCommand(deps, ctx, `owner:${key.owner}`, body, {
          prepare: () => prepareResizeTask(deps, key, taskId, input),
          run: async (tx, prepared) =>
            ack(await resizeTask(tx, deps, key, prepared)),
        })
      }),
    },
  ]
}
