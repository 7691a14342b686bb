import type { TaskRecord, TaskStatus } from '../domain/task.js'
import type {
  Leg,
  TaskEngineState,
  TaskOperation,
} from '../domain/taskEngineState.js'
import type { TaskPatch } from '../ports/store.js'
import type { LegIo } from './taskLegOrders.js'
import type { WorkerDeps } from './workerDeps.js'

/** How often a running task is monitored. */
export const MONITOR_MS = 1_000
/** Retry delay while a venue cannot be reached. */
export const RETRY_MS = 2_000

/**
 * One step's view of a claimed task, with fenced writes. The phases
 * (open, monitor, close, resize, unwind) act through it, so none of them
 * imports the step runner that calls them.
 */
export interface TaskStep {
  readonly deps: WorkerDeps
  readonly now: number
  readonly task: TaskRecord
  readonly state: TaskEngineState
  /**
   * Writes while this step's claim holds; with `statuses`, only while the
   * task is still in one of them (the API may have moved it meanwhile).
   * @throws FencedOutError when either no longer holds
   */
  save(
    patch: Omit<TaskPatch, 'updatedAt'>,
    statuses?: readonly TaskStatus[],
  ): Promise<TaskRecord>
  /** venue, market and decrypted credential of each leg */
  io(): Promise<Record<Leg, LegIo>>
  /**
   * Under the legs' account locks, persists an operation with its leg
   * orders (client ids included) before any is sent, then sends them.
   * @returns when to look again, or null when the task is final
   */
  startOperation(
    kind: TaskOperation['kind'],
    seq: number,
    legs: TaskOperation['legs'],
  ): Promise<number | null>
}
