import type { TaskRecord } from '../domain/task.js'
import type { Leg } from '../domain/taskEngineState.js'
import { taskPnl } from '../domain/taskPnl.js'
import { TASK_SAMPLE_MS, type TaskSampleRecord } from '../domain/taskSample.js'
import { dec, decString } from '../util/decimal.js'
import { errorMessage } from '../util/errorMessage.js'
import { msToIso } from '../util/time.js'
import type { LegReading, RunningVerdict } from './evaluateRunningTask.js'
import type { WorkerDeps } from './workerDeps.js'

/** A leg's mark to its liquidation price, percent of the mark, 2 places. */
function liqDistancePct(reading: LegReading): string | null {
  const liq = reading.position?.liquidationPrice
  const mark = dec(reading.quote.mark)
  if (!liq || mark.isZero()) return null
  return decString(mark.sub(liq).abs().div(mark).mul(100).toDecimalPlaces(2))
}

/**
 * What a running task shows at `now`, once the monitor evaluated it: the
 * PnL at the marks just read, the funding booked, the pair's APY and each
 * leg's distance to liquidation.
 */
function taskSample(
  task: TaskRecord,
  legs: Readonly<Record<Leg, LegReading>>,
  verdict: RunningVerdict,
  now: number,
): TaskSampleRecord {
  const pnl = taskPnl({ ...task, ...verdict.shows })
  return {
    taskId: task.id,
    at: msToIso(now),
    fundingUsd: pnl.fundingUsd,
    pnlTotalUsd: pnl.totalUsd,
    unrealizedUsd: pnl.unrealizedUsd,
    feesUsd: pnl.feesUsd,
    fundingApy: verdict.state.fundingApy,
    longPrice: verdict.shows.longPrice,
    shortPrice: verdict.shows.shortPrice,
    longLiqDistancePct: liqDistancePct(legs.long),
    shortLiqDistancePct: liqDistancePct(legs.short),
  }
}

/** The slot each task was last sampled in, per worker. */
const sampledSlots = new WeakMap<WorkerDeps, Map<string, number>>()

/**
 * Collects one sweep's samples: a task is sampled when the sweep is in a
 * slot (`deps.taskSampleMs` long) this worker has not sampled it in; the
 * store keeps at most one sample per task and slot, whatever other workers
 * do. Tasks no longer swept are forgotten.
 */
export function createSweepSampler(deps: WorkerDeps) {
  const everyMs = deps.taskSampleMs ?? TASK_SAMPLE_MS
  const before = sampledSlots.get(deps) ?? new Map<string, number>()
  const after = new Map<string, number>()
  const samples: TaskSampleRecord[] = []
  return {
    /** Takes the task's sample unless this slot has one. */
    offer(
      task: TaskRecord,
      legs: Readonly<Record<Leg, LegReading>>,
      verdict: RunningVerdict,
      now: number,
    ): void {
      const slot = Math.floor(now / everyMs)
      after.set(task.id, before.get(task.id) ?? -1)
      if (before.get(task.id) === slot) return
      samples.push(taskSample(task, legs, verdict, now))
      after.set(task.id, slot)
    },
    /** Stores the samples taken; a failure is logged, not thrown. */
    async flush(): Promise<void> {
      sampledSlots.set(deps, after)
      if (samples.length === 0) return
      try {
        await deps.store.taskSamples.add(samples, everyMs)
      } catch (err) {
        for (const s of samples) after.delete(s.taskId)
        deps.logger.error('task samples not stored', {
          workerId: deps.workerId,
          error: errorMessage(err),
        })
      }
    },
  }
}
