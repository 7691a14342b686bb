import type { Lease } from '../domain/lease.js'
import { FencedOutError } from '../errors/worker.js'
import type { WorkKind } from '../ports/store.js'
import { msToIso } from '../util/time.js'
import { accountMarketLock } from './accountMarketLock.js'
import { LIVE_WORKER_MS } from './ownerShard.js'
import {
  ACTIVE_BATCH_STATUSES,
  processBindingBatch,
} from './processBindingBatch.js'
import { ACTIVE_ORDER_STATUSES, processPerpOrder } from './processPerpOrder.js'
import { ACTIVE_TASK_STATUSES, processTask } from './processTask.js'
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

/** What a worker is doing, for a stop to report and tidy. */
export interface RoundTracker {
  /** items being advanced now, as `order:<id>`, `task:<id>`, `binding:<id>` */
  readonly inFlight: Set<string>
  /** items that failed and kept their lease (until when), with how to give it back */
  readonly failed: Map<
    string,
    { readonly until: number; release(): Promise<unknown> }
  >
}

/** How many rows of each kind to claim; a kind left out is not claimed. */
export type ClaimSlots = Readonly<Partial<Record<WorkKind, number>>>

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
  const nowMs = deps.clock.now()
  const now = msToIso(nowMs)
  const claim = {
    workerId: deps.workerId,
    now,
    leaseMs: deps.leaseMs,
    exclude,
    // a worker silent this long is dead: what it held is taken over
    ownerDeadBefore: msToIso(nowMs - LIVE_WORKER_MS),
  }
  // a lease another worker still held is a steal: it died, stalled or
  // was fenced with work in hand
  const stolen = (kind: WorkKind) => (id: string, from: string) =>
    reportWorkerEvent(deps, {
      type: 'leaseSteal',
      kind,
      id,
      reason: 'taken_over',
      from,
    })
  const limit = (kind: WorkKind) => slots[kind] ?? 0
  const [orders, tasks, batches] = await Promise.all([
    limit('order') > 0
      ? deps.store.orders.claim({
          ...claim,
          limit: limit('order'),
          // an order whose market this worker is trading would only find
          // its lock busy: it waits unclaimed instead of churning
          busyMarkets,
          statuses: ACTIVE_ORDER_STATUSES,
          onTakenOver: stolen('order'),
        })
      : [],
    limit('task') > 0
      ? deps.store.tasks.claim({
          ...claim,
          limit: limit('task'),
          statuses: ACTIVE_TASK_STATUSES,
          onTakenOver: stolen('task'),
        })
      : [],
    limit('binding') > 0
      ? deps.store.bindingBatches.claim({
          ...claim,
          limit: limit('binding'),
          statuses: ACTIVE_BATCH_STATUSES,
          onTakenOver: stolen('binding'),
        })
      : [],
  ])
  // each item with how to give its lease back (at the fence it was
  // claimed with: a no-op once another claim has taken the row)
  const unlease = () => ({
    leaseOwner: null,
    leaseExpiresAt: null,
    updatedAt: msToIso(deps.clock.now()),
  })
  const item = (
    kind: WorkKind,
    row: Lease & { readonly id: string; readonly updatedAt: string },
    markets: readonly string[],
    run: () => Promise<unknown>,
    release: () => Promise<unknown>,
    renew: (until: string) => Promise<boolean>,
  ): WorkItem => {
    reportWorkerEvent(deps, {
      type: 'pickup',
      kind,
      id: row.id,
      waitedMs: Math.max(
        0,
        nowMs - Date.parse(row.nextCheckAt ?? row.updatedAt),
      ),
    })
    return {
      kind,
      id: row.id,
      key: `${kind}:${row.id}`,
      markets,
      leaseUntil: nowMs + deps.leaseMs,
      run,
      release,
      async renew(until) {
        const renewed = await renew(msToIso(until))
        if (renewed) this.leaseUntil = until
        return renewed
      },
    }
  }
  return [
    ...orders.map((o) =>
      item(
        'order',
        o,
        [accountMarketLock(o.owner, o.venue, o.market)],
        () => processPerpOrder(deps, o),
        () => deps.store.orders.update(o.id, unlease(), { fence: o.fence }),
        (until) => deps.store.orders.renewLease(o.id, until, o),
      ),
    ),
    ...tasks.map((t) =>
      item(
        'task',
        t,
        [
          accountMarketLock(t.owner, t.longVenue, t.longMarket),
          accountMarketLock(t.owner, t.shortVenue, t.shortMarket),
        ],
        () => processTask(deps, t),
        () => deps.store.tasks.update(t.id, unlease(), { fence: t.fence }),
        (until) => deps.store.tasks.renewLease(t.id, until, t),
      ),
    ),
    ...batches.map((b) =>
      item(
        'binding',
        b,
        [],
        () => processBindingBatch(deps, b),
        () =>
          deps.store.bindingBatches.update(b.id, unlease(), {
            fence: b.fence,
          }),
        (until) => deps.store.bindingBatches.renewLease(b.id, until, b),
      ),
    ),
  ]
}

/**
 * Advances one claimed item; never rejects. A failed item keeps its lease
 * until expiry (the retry's backoff; a stopping worker gives it back) and
 * is logged; a fenced-out one is dropped silently.
 */
export async function runWorkItem(
  deps: WorkerDeps,
  item: WorkItem,
  track?: RoundTracker,
): Promise<void> {
  track?.inFlight.add(item.key)
  track?.failed.delete(item.key)
  try {
    await item.run()
  } catch (err) {
    track?.failed.set(item.key, {
      until: item.leaseUntil,
      release: item.release,
    })
    if (!(err instanceof FencedOutError)) {
      deps.logger.error(
        'work item failed; it is retried when its lease expires',
        {
          workerId: deps.workerId,
          item: item.key,
          error: err instanceof Error ? err.message : String(err),
        },
      )
    }
  } finally {
    track?.inFlight.delete(item.key)
  }
}
