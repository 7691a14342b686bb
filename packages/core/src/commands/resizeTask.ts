import type { ApiKeyRecord } from '../domain/apiKey.js'
import { planOrder } from '../domain/planOrder.js'
import type { TaskRecord } from '../domain/task.js'
import {
  ConflictError,
  RuleViolationError,
  UnavailableError,
} from '../errors/domain.js'
import type { Repos } from '../ports/store.js'
import { decString } from '../util/decimal.js'
import { msToIso } from '../util/time.js'
import type { CommandDeps } from './commandDeps.js'
import { listedMarket } from './marketChecks.js'
import { ownedTask } from './ownedTask.js'

export interface ResizeTaskParameters {
  readonly longTargetBase?: number | undefined
  readonly shortTargetBase?: number | undefined
  readonly disableSizeMismatchAutoClose?: boolean | undefined
}

export interface PreparedResize {
  readonly taskId: string
  readonly longTargetBase: string | null
  readonly shortTargetBase: string | null
  readonly disableSizeMismatchAutoClose: boolean
}

/**
 * Checks a resize before the transaction: the feature is on, the task is
 * visible, and each target (total base on that leg, rounded down to the
 * venue step) meets the venue minimum and the key's USD cap at a fresh mark.
 */
export async function prepareResizeTask(
  deps: Pick<CommandDeps, 'markets' | 'store' | 'workerResize'>,
  key: ApiKeyRecord,
  taskId: string,
  params: ResizeTaskParameters,
): Promise<PreparedResize> {
  if (!deps.workerResize) {
    throw new UnavailableError(
      'resize_unavailable',
      'resizing is switched off on this deployment (WORKER_RESIZE=false)',
    )
  }
  const task = await ownedTask(deps.store, key, taskId, 'command')
  const target = async (
    leg: 'long' | 'short',
    value: number | undefined,
  ): Promise<string | null> => {
    if (value === undefined) return null
    const venue = leg === 'long' ? task.longVenue : task.shortVenue
    const market = leg === 'long' ? task.longMarket : task.shortMarket
    const { rules, quote } = await listedMarket(deps.markets, venue, market)
    // a target is a position, not an order: sized and capped at the mark
    const plan = planOrder(
      rules,
      quote,
      { sizeBase: value, side: leg, limitPrice: quote.mark, slippageBps: 0 },
      key.maxSizeUsd,
    )
    const base = plan.size
    if (base.isZero() || base.lt(rules.minBase)) {
      throw new RuleViolationError(
        'below_venue_minimum',
        `${leg}TargetBase ${decString(value)} rounds to ${decString(base)}, below the ${venue} minimum of ${rules.minBase} (step ${rules.sizeStep})`,
      )
    }
    if (plan.problem === 'exceeds_cap') {
      throw new RuleViolationError(
        'size_exceeds_key_limit',
        `${leg}TargetBase is USD ${decString(plan.riskUsd.toDecimalPlaces(2))} at mark ${quote.mark}, above this key's maxSizeUsd ${key.maxSizeUsd}`,
      )
    }
    return decString(base)
  }
  return {
    taskId,
    longTargetBase: await target('long', params.longTargetBase),
    shortTargetBase: await target('short', params.shortTargetBase),
    disableSizeMismatchAutoClose: params.disableSizeMismatchAutoClose ?? false,
  }
}

/** Records the resize request; the worker moves both legs to the targets. */
export async function resizeTask(
  tx: Repos,
  deps: Pick<CommandDeps, 'clock'>,
  key: ApiKeyRecord,
  prepared: PreparedResize,
): Promise<{ taskId: string; status: 'resizing' }> {
  const task: TaskRecord = await ownedTask(tx, key, prepared.taskId, 'command')
  if (task.closeRequestedAt !== null) {
    throw new ConflictError(
      'close_queued',
      'a close is queued for this task; it cannot be resized',
    )
  }
  if (task.status === 'resizing') {
    throw new ConflictError(
      'owner_operation_in_progress',
      'a resize of this task is in progress; poll the task and retry when it is running',
    )
  }
  const now = msToIso(deps.clock.now())
  const updated =
    task.status === 'running'
      ? await tx.tasks.update(
          task.id,
          {
            status: 'resizing',
            resizeRequest: {
              longTargetBase: prepared.longTargetBase,
              shortTargetBase: prepared.shortTargetBase,
              requestedAt: now,
            },
            ...(prepared.disableSizeMismatchAutoClose
              ? { sizeMismatchPct: null }
              : {}),
            nextCheckAt: null,
            updatedAt: now,
          },
          { status: ['running'] },
        )
      : undefined
  if (!updated) {
    throw new ConflictError(
      'task_not_running',
      `task is ${task.status}; only running tasks can be resized`,
    )
  }
  return { taskId: task.id, status: 'resizing' }
}
