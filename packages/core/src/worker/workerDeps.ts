import type { ApiKeyLookup } from '../auth/apiKeyCache.js'
import type { VenueId } from '../domain/venue.js'
import type { Clock } from '../ports/clock.js'
import type { Logger } from '../ports/logger.js'
import type { Secrets } from '../ports/secrets.js'
import type { Store } from '../ports/store.js'
import type { VenueAdapter } from '../ports/venueAdapter.js'
import type { VenueBinder } from '../ports/venueBinder.js'
import type { WorkerObserver } from '../ports/workerObserver.js'
import type { VenueBindingLookup } from './bindingCache.js'

/** The worker writes through core's log port. */
export type WorkerLogger = Logger

/** What the worker engines need, wired at the composition root. */
export interface WorkerDeps {
  readonly store: Store
  /**
   * where a task or order finds its API key before it goes to a venue
   * (a revoked key stops it) @default the store's `apiKeys`
   */
  readonly apiKeys?: ApiKeyLookup | undefined
  /**
   * where a step finds the owner's venue binding (its credential)
   * @default the store's `bindings`
   */
  readonly bindings?: VenueBindingLookup | undefined
  readonly clock: Clock
  readonly adapters: Readonly<Record<VenueId, VenueAdapter>>
  /** venue binders; a venue without one is left to other workers */
  readonly binders?: Readonly<Partial<Record<VenueId, VenueBinder>>> | undefined
  readonly secrets: Secrets
  readonly workerId: string
  /** how long a claim is held before another worker may take it */
  readonly leaseMs: number
  /** how long the funding APY must stay under minFundingApy to close */
  readonly fundingGraceMs: number
  readonly logger: WorkerLogger
  /** what the worker did, for metrics @default not observed */
  readonly observer?: WorkerObserver | undefined
  /**
   * how often the monitor samples a running task's funding and PnL for
   * its history (`GET .../tasks/{id}/history`) @default TASK_SAMPLE_MS (60 s)
   */
  readonly taskSampleMs?: number | undefined
  /**
   * The process the worker runs in, where the composition root can tell:
   * a worker on the same machine whose process is gone is fenced at once
   * and its leases taken over @default unknown: leases wait out the
   * owner's silence (LIVE_WORKER_MS) or their expiry
   */
  readonly process?: WorkerProcess | undefined
  /**
   * Reads these accounts and writes the snapshots the API serves, at
   * once: what the worker's own orders just changed (a task opened,
   * resized or closed) shows in `GET /v1/positions` before the task says
   * so. Never rejects @default not refreshed (the next periodic read)
   */
  readonly refreshAccounts?:
    | ((
        accounts: readonly {
          readonly owner: string
          readonly venue: VenueId
        }[],
      ) => Promise<void>)
    | undefined
}

/** The machine and process a worker runs in. */
export interface WorkerProcess {
  /** this machine and process namespace; null where it cannot be told */
  readonly host: string | null
  readonly pid: number
  /** whether a process of this pid runs on this host now */
  isRunning(pid: number): boolean
}

/** Channel the API notifies when it has made work due. */
export const WORK_CHANNEL = 'dn_work'

/** The API key `id` as a worker step sees it (see `WorkerDeps.apiKeys`). */
export function workerApiKey(deps: WorkerDeps, id: string) {
  return (deps.apiKeys ?? deps.store.apiKeys).get(id)
}
