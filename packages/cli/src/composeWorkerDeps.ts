import { randomUUID } from 'node:crypto'
import { hostname } from 'node:os'
import {
  type Clock,
  createAesGcmSecrets,
  createApiKeyCache,
  createBindingCache,
  type Store,
  systemClock,
  type VenueAdapter,
  type VenueBinder,
  type VenueId,
  type WorkerDeps,
  type WorkerLogger,
  type WorkerObserver,
} from '@dn/core'
import { deriveKey } from './masterKey.js'
import { processLogger } from './processLogger.js'
import { currentWorkerProcess } from './workerProcess.js'

export interface ComposeWorkerDepsOptions {
  readonly store: Store
  readonly adapters: Readonly<Record<VenueId, VenueAdapter>>
  readonly masterKey: Buffer
  readonly clock?: Clock
  /** @default `<host>-<pid>-<random>` */
  readonly workerId?: string
  /** @default 30_000 */
  readonly leaseMs?: number
  /** @default 3_600_000 (one hour) */
  readonly fundingGraceMs?: number
  readonly logger?: WorkerLogger
  /** where transitions and submits are counted (the process's metrics) */
  readonly observer?: WorkerObserver | undefined
  /**
   * how often running tasks are sampled for their history
   * @default DN_TASK_SAMPLE_MS from the environment, else 60_000
   */
  readonly taskSampleMs?: number
  /** binders for binding jobs; venues without one are left to others */
  readonly binders?: Readonly<Partial<Record<VenueId, VenueBinder>>>
}

/** The composition root of a worker process. */
export function composeWorkerDeps(o: ComposeWorkerDepsOptions): WorkerDeps {
  return {
    store: o.store,
    // a submission checks its key without a read while no key was revoked
    apiKeys: createApiKeyCache({ store: o.store }),
    // and finds its credential without a read while no binding changed
    bindings: createBindingCache({ store: o.store }),
    clock: o.clock ?? systemClock,
    adapters: o.adapters,
    secrets: createAesGcmSecrets(deriveKey(o.masterKey, 'venue-credentials')),
    workerId:
      o.workerId ?? `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`,
    leaseMs: o.leaseMs ?? 30_000,
    fundingGraceMs: o.fundingGraceMs ?? 3_600_000,
    logger: o.logger ?? processLogger(),
    taskSampleMs: o.taskSampleMs ?? sampleMsFromEnv(process.env),
    binders: o.binders,
    observer: o.observer,
    // a gone predecessor on this machine is fenced and its work resumed
    process: currentWorkerProcess(),
  }
}

/** `DN_TASK_SAMPLE_MS`: a whole number of ms, at least 1 000; else the default. */
function sampleMsFromEnv(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env.DN_TASK_SAMPLE_MS
  if (raw === undefined || !/^\d{1,12}$/.test(raw)) return undefined
  return Math.max(1_000, Number(raw))
}
