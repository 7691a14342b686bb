import { type PendingReason, sameReason } from '../domain/pendingReason.js'
import type { TaskPatch } from '../ports/store.js'
import type { TaskStep } from './taskStep.js'

/**
 * The engine-state patch that records why a pending task did not open
 * (with the funding APY seen, when the attempt read quotes); null when
 * the task shows that reason already, so a task held back by the same
 * rule round after round is not written again for it.
 */
export function pendingReasonPatch(
  step: Pick<TaskStep, 'task' | 'state'>,
  reason: PendingReason,
  fundingApy?: string,
): Pick<TaskPatch, 'engineState'> | null {
  if (step.task.status !== 'pending' || step.state.op !== null) return null
  if (sameReason(step.state.pendingReason, reason)) return null
  return {
    engineState: {
      ...step.state,
      pendingReason: reason,
      ...(fundingApy === undefined ? {} : { fundingApy }),
    },
  }
}

/** Saves a pending task's reason when it changed (pendingReasonPatch). */
export async function recordPendingReason(
  step: TaskStep,
  reason: PendingReason,
  fundingApy?: string,
): Promise<void> {
  const patch = pendingReasonPatch(step, reason, fundingApy)
  if (patch) await step.save(patch)
}
