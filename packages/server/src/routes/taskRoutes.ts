import {
  CreateTaskBody,
  cancelTask,
  closeTask,
  createTask,
  EmptyBody,
  EmptyQuery,
  getTask,
  getTaskHistory,
  ListQuery,
  listTasks,
  prepareCreateTask,
  prepareResizeTask,
  ResizeTaskBody,
  resizeTask,
  TaskAck,
  TaskHistory,
  TaskHistoryQuery,
  TaskList,
  TaskResponse,
} from '@dn/core'
import { bearerCommand, bearerRead } from './bearerHandlers.js'
import { KEY_COMMAND_ERRORS, KEY_READ_ERRORS } from './errorCodeSets.js'
import { defineRoute } from './routeSpec.js'

const BASE = '/v1/delta-neutral/tasks'

const read = {
  method: 'GET',
  tag: 'Tasks',
  auth: 'apiKey',
  family: 'strategy',
  idempotent: false,
  errors: KEY_READ_ERRORS,
} as const

const command = {
  method: 'POST',
  tag: 'Tasks',
  auth: 'apiKey',
  family: 'strategy',
  idempotent: true,
  errors: KEY_COMMAND_ERRORS,
} as const

/** Paired-position tasks (strategy budget and request log). */
export const TASK_ROUTES = [
  defineRoute(
    {
      ...read,
      path: BASE,
      operationId: 'listTasks',
      summary: "List the owner's tasks on venues the key grants",
      request: { query: ListQuery },
      success: { status: 200, schema: TaskList, description: 'One page' },
    },
    (env) =>
      bearerRead(env, (key, input) =>
        listTasks(env.deps.store, key, input.query),
      ),
  ),
  defineRoute(
    {
      ...command,
      path: BASE,
      operationId: 'createTask',
      action: 'task.create',
      summary: 'Open a paired position (long on one venue, short on another)',
      request: { body: CreateTaskBody, query: EmptyQuery },
      success: { status: 202, schema: TaskAck, description: 'Task queued' },
      errors: [
        ...KEY_COMMAND_ERRORS,
        'below_venue_minimum',
        'market_not_listed',
        'size_exceeds_key_limit',
      ],
    },
    (env) =>
      bearerCommand(env, {
        prepare: (key, input) => prepareCreateTask(env.deps, key, input.body),
        run: async (tx, key, _input, prepared) => {
          const task = await createTask(tx, env.deps, key, prepared)
          return { taskId: task.id, status: 'pending' }
        },
      }),
  ),
  defineRoute(
    {
      ...read,
      path: `${BASE}/{taskId}`,
      operationId: 'getTask',
      summary: 'Read one task',
      request: { query: EmptyQuery },
      success: { status: 200, schema: TaskResponse, description: 'The task' },
    },
    (env) =>
      bearerRead(env, (key, input) =>
        getTask(env.deps.store, key, input.params.taskId as string),
      ),
  ),
  defineRoute(
    {
      ...read,
      path: `${BASE}/{taskId}/history`,
      operationId: 'getTaskHistory',
      summary:
        "A task's funding and PnL over time (samples the worker took while it ran) and its close rules",
      request: { query: TaskHistoryQuery },
      success: {
        status: 200,
        schema: TaskHistory,
        description: 'The newest samples at or after `since`, oldest first',
      },
    },
    (env) =>
      bearerRead(env, (key, input) =>
        getTaskHistory(
          env.deps.store,
          key,
          input.params.taskId as string,
          input.query,
        ),
      ),
  ),
  defineRoute(
    {
      ...command,
      path: `${BASE}/{taskId}/cancel`,
      operationId: 'cancelTask',
      action: 'task.cancel',
      summary: 'Cancel a pending task',
      request: { body: EmptyBody, query: EmptyQuery },
      success: { status: 202, schema: TaskAck, description: 'Task cancelled' },
      errors: [...KEY_COMMAND_ERRORS, 'task_not_cancellable'],
    },
    (env) =>
      bearerCommand(env, {
        run: (tx, key, input) =>
          cancelTask(tx, env.deps, key, input.params.taskId as string),
      }),
  ),
  defineRoute(
    {
      ...command,
      path: `${BASE}/{taskId}/close`,
      operationId: 'closeTask',
      action: 'task.close',
      summary: 'Queue the close of a running task',
      request: { body: EmptyBody, query: EmptyQuery },
      success: { status: 202, schema: TaskAck, description: 'Close queued' },
      errors: [...KEY_COMMAND_ERRORS, 'task_not_running'],
    },
    (env) =>
      bearerCommand(env, {
        run: (tx, key, input) =>
          closeTask(tx, env.deps, key, input.params.taskId as string),
      }),
  ),
  defineRoute(
    {
      ...command,
      path: `${BASE}/{taskId}/resize`,
      operationId: 'resizeTask',
      action: 'task.resize',
      summary: 'Resize a running task to new total base targets',
      request: { body: ResizeTaskBody, query: EmptyQuery },
      success: { status: 202, schema: TaskAck, description: 'Resize queued' },
      errors: [
        ...KEY_COMMAND_ERRORS,
        'task_not_running',
        'close_queued',
        'below_venue_minimum',
        'size_exceeds_key_limit',
        'resize_unavailable',
      ],
    },
    (env) =>
      bearerCommand(env, {
        prepare: (key, input) =>
          prepareResizeTask(
            env.deps,
            key,
            input.params.taskId as string,
            input.body,
          ),
        run: (tx, key, _input, prepared) =>
          resizeTask(tx, env.deps, key, prepared),
      }),
  ),
]
