import type {
  BindingBatchRecord,
  BindingBatchStatus,
} from '../domain/bindingBatch.js'
import type { Lease } from '../domain/lease.js'
import type { PerpOrderRecord, PerpOrderStatus } from '../domain/perpOrder.js'
import {
  ACTIVE_TASK_STATUSES,
  type TaskRecord,
  type TaskStatus,
} from '../domain/task.js'
import { FencedOutError } from '../errors/worker.js'
import type {
  ClaimRequest,
  NamedLock,
  OrderOnMarket,
  Repos,
  WorkKind,
} from '../ports/store.js'
import { errorMessage } from '../util/errorMessage.js'
import { msToIso } from '../util/time.js'
import { accountMarketLock, orderLock } from './accountMarketLock.js'
import { LIVE_WORKER_MS } from './ownerShard.js'
import {
  ACTIVE_BATCH_STATUSES,
  processBindingBatch,
} from './processBindingBatch.js'
import { ACTIVE_ORDER_STATUSES, processPerpOrder } from './processPerpOrder.js'
import { processTask, SCHEDULED_TASK_STATUSES } from './processTask.js'
import { reportWorkerEvent } from './reportWorkerEvent.js'
import type { WorkerDeps } from './workerDeps.js'

/** A claimed row: how to advance it, and how to give its lease back. */
export interface WorkItem {
  readonly kind: WorkKind
  readonly id: string
  /** `order:<id>`, `task:<id>`, `binding:<id>` */
  readonly key: string
  /** the account-market locks its run takes (`accountMarketLock`) */
  readonly markets: readonly string[]
  /** ms since the epoch when its lease runs out (moved by `renew`) */
  leaseUntil: number
  run(): Promise<unknown>
  release(): Promise<unknown>
  /**
   * Extends the lease to `until` (ms) at the fence it was claimed with.
   * @returns false when another worker has taken the row since
   */
  renew(until: number): Promise<boolean>
}

/** How many rows of each kind to claim; a kind left out is not claimed. */
export type ClaimSlots = Readonly<Partial<Record<WorkKind, number>>>

/** A claimable row as the claim loop reads it. */
type ClaimedRow = Lease & { readonly id: string; readonly updatedAt: string }

/** Tasks, orders and binding batches, as the claim loop uses each. */
interface LeasedKind<R extends ClaimedRow, S extends string> {
  readonly kind: WorkKind
  readonly statuses: readonly S[]
  /** claimed only once a check is scheduled and due @default none */
  readonly scheduledStatuses?: readonly S[]
  repo(repos: Repos): {
    claim(request: ClaimRequest<S>): Promise<R[]>
    update(
      id: string,
      patch: {
        leaseOwner: null
        leaseExpiresAt: null
        updatedAt: string
      },
      guard: { readonly fence: number },
    ): Promise<unknown>
    renewLease(
      id: string,
      until: string,
      guard: { readonly fence: number },
    ): Promise<boolean>
  }
  /** the account-market locks its run takes */
  markets(row: R): readonly string[]
  /** `locked`: the claim took the row's account-market lock for it */
  process(deps: WorkerDeps, row: R, locked: boolean): Promise<unknown>
  /**
   * the lock a claimed row's run takes, taken by the claim where it is
   * free @default none taken by the claim
   */
  claimLock?(deps: WorkerDeps, row: OrderOnMarket): NamedLock
}

const ORDERS: LeasedKind<PerpOrderRecord, PerpOrderStatus> = {
  kind: 'order',
  statuses: ACTIVE_ORDER_STATUSES,
  repo: (store) => store.orders,
  markets: (o) => [accountMarketLock(o.owner, o.venue, o.market)],
  process: processPerpOrder,
  // a submission's lock, taken with its claim: one write fewer per order
  claimLock: (deps, o) => orderLock(deps.workerId, o),
}

const TASKS: LeasedKind<TaskRecord, TaskStatus> = {
  kind: 'task',
  statuses: ACTIVE_TASK_STATUSES,
  scheduledStatuses: SCHEDULED_TASK_STATUSES,
  repo: (store) => store.tasks,
  // a closed task's run only reads its venues: it takes no lock
  markets: (t) =>
    SCHEDULED_TASK_STATUSES.includes(t.status)
      ? []
      : [
          accountMarketLock(t.owner, t.longVenue, t.longMarket),
          accountMarketLock(t.owner, t.shortVenue, t.shortMarket),
        ],
  process: processTask,
}

const BATCHES: LeasedKind<BindingBatchRecord, BindingBatchStatus> = {
  kind: 'binding',
  statuses: ACTIVE_BATCH_STATUSES,
  repo: (store) => store.bindingBatches,
  markets: () => [],
  process: processBindingBatch,
}

/**
 * Claims due rows under leases: up to `slots[kind]` of each kind, never one
 * of `exclude` (ids this worker still advances: a lease that ran out while
 * its run waited on a venue must not start a second run beside the first).
 * Reports each claim's wait (`pickup`) and each lease taken over from
 * another worker.
 */
export async function claimWork(
  deps: WorkerDeps,
  slots: ClaimSlots,
  exclude: readonly string[] = [],
  busyMarkets: readonly string[] = [],
): Promise<WorkItem[]> {
  const claimed = await Promise.all([
    // a pending order whose market this worker is trading would only
    // find its lock busy: it waits unclaimed instead of churning
    claimKind(deps, ORDERS, slots, { exclude, busyMarkets }),
    claimKind(deps, TASKS, slots, { exclude }),
    claimKind(deps, BATCHES, slots, { exclude }),
  ])
  return claimed.flat()
}

async function claimKind<R extends ClaimedRow, S extends string>(
  deps: WorkerDeps,
  spec: LeasedKind<R, S>,
  slots: ClaimSlots,
  skip: Pick<ClaimRequest<S>, 'exclude' | 'busyMarkets'>,
): Promise<WorkItem[]> {
  const limit = slots[spec.kind] ?? 0
  if (limit <= 0) return []
  const { kind } = spec
  const repo = spec.repo(deps.store)
  const nowMs = deps.clock.now()
  const { claimLock } = spec
  // in the shared commit: a claim beside the API's commands (one process)
  // costs no commit of its own. What the claim reports is kept only from
  // the run that committed (a failed group runs its members again)
  const { rows, locked, takenOver } = await deps.store.sharedTransaction(
    async (tx) => {
      const locked = new Set<string>()
      const takenOver: [id: string, from: string][] = []
      const rows = await spec.repo(tx).claim({
        ...skip,
        workerId: deps.workerId,
        now: msToIso(nowMs),
        leaseMs: deps.leaseMs,
        limit,
        statuses: spec.statuses,
        scheduledStatuses: spec.scheduledStatuses,
        // a worker silent this long is dead: what it held is taken over
        ownerDeadBefore: msToIso(nowMs - LIVE_WORKER_MS),
        onTakenOver: (id, from) => takenOver.push([id, from]),
        ...(claimLock === undefined
          ? {}
          : {
              lockPending: {
                lockOf: (row) => claimLock(deps, row),
                onLocked: (id) => locked.add(id),
              },
            }),
      })
      return { rows, locked, takenOver }
    },
  )
  // a lease another worker still held is a steal: it died, stalled or was
  // fenced with work in hand
  for (const [id, from] of takenOver) {
    reportWorkerEvent(deps, {
      type: 'leaseSteal',
      kind,
      id,
      reason: 'taken_over',
      from,
    })
  }
  return rows.map((row) => {
    reportWorkerEvent(deps, {
      type: 'pickup',
      kind,
      id: row.id,
      waitedMs: Math.max(
        0,
        nowMs - Date.parse(row.nextCheckAt ?? row.updatedAt),
      ),
    })
    // the fence it was claimed with: giving back or renewing the lease is
    // a no-op once another claim has taken the row
    const guard = { fence: row.fence }
    return {
      kind,
      id: row.id,
      key: `${kind}:${row.id}`,
      markets: spec.markets(row),
      leaseUntil: nowMs + deps.leaseMs,
      run: () => spec.process(deps, row, locked.has(row.id)),
      release: () =>
        repo.update(
          row.id,
          {
            leaseOwner: null,
            leaseExpiresAt: null,
            updatedAt: msToIso(deps.clock.now()),
          },
          guard,
        ),
      async renew(until) {
        const renewed = await repo.renewLease(row.id, msToIso(until), guard)
        if (renewed) this.leaseUntil = until
        return renewed
      },
    }
  })
}

/**
 * Advances one claimed item; never rejects. A failed item keeps its lease
 * until expiry (the retry's backoff; a stopping worker gives it back) and
 * is logged; a fenced-out one is dropped silently.
 * @returns false when it failed
 */
export async function runWorkItem(
  deps: WorkerDeps,
  item: WorkItem,
): Promise<boolean> {
  try {
    await item.run()
    return true
  } catch (err) {
    if (!(err instanceof FencedOutError)) {
      deps.logger.error(
        'work item failed; it is retried when its lease expires',
        {
          workerId: deps.workerId,
          item: item.key,
          error: errorMessage(err),
        },
      )
    }
    return false
  }
}
