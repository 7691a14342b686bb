import { FencedOutError } from '../errors/worker.js'
import type { WorkKind } from '../ports/store.js'
import { msToIso } from '../util/time.js'
import { createAccountSnapshots } from './accountSnapshots.js'
import { createDeadManSwitches } from './deadManSwitches.js'
import { fenceGoneWorkers } from './fenceGoneWorkers.js'
import { runMonitorSweep } from './monitorSweep.js'
import { LIVE_WORKER_MS } from './ownerShard.js'
import {
  ACTIVE_BATCH_STATUSES,
  processBindingBatch,
} from './processBindingBatch.js'
import { ACTIVE_ORDER_STATUSES, processPerpOrder } from './processPerpOrder.js'
import { ACTIVE_TASK_STATUSES, MONITOR_MS, processTask } from './processTask.js'
import { reportWorkerEvent } from './reportWorkerEvent.js'
import { shareAccountReads } from './shareAccountReads.js'
import { WORK_CHANNEL, type WorkerDeps } from './workerDeps.js'

/**
 * One round: claim due orders and tasks (up to `batch` of each) and advance
 * them concurrently, then (unless `sweep` is false: `startWorker` runs the
 * sweep on its own loop) evaluate the running tasks this worker watches
 * (`runMonitorSweep`). A failed item keeps its
 * lease until expiry and is retried then; a fenced-out item is dropped
 * silently.
 * @returns how many items were advanced, plus the watched rows written
 */
export async function runWorkerRound(
  deps: WorkerDeps,
  batch = 16,
  sweep = true,
  track?: RoundTracker,
): Promise<number> {
  const now = msToIso(deps.clock.now())
  const claim = {
    workerId: deps.workerId,
    now,
    leaseMs: deps.leaseMs,
    limit: batch,
    // a worker silent this long is dead: what it held is taken over
    ownerDeadBefore: msToIso(deps.clock.now() - LIVE_WORKER_MS),
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
  const [orders, tasks, batches] = await Promise.all([
    deps.store.orders.claim({
      ...claim,
      statuses: ACTIVE_ORDER_STATUSES,
      onTakenOver: stolen('order'),
    }),
    deps.store.tasks.claim({
      ...claim,
      statuses: ACTIVE_TASK_STATUSES,
      onTakenOver: stolen('task'),
    }),
    deps.store.bindingBatches.claim({
      ...claim,
      statuses: ACTIVE_BATCH_STATUSES,
      onTakenOver: stolen('binding'),
    }),
  ])
  // each item with how to give its lease back (at the fence it was
  // claimed with: a no-op once another claim has taken the row)
  const unlease = () => ({
    leaseOwner: null,
    leaseExpiresAt: null,
    updatedAt: msToIso(deps.clock.now()),
  })
  const work: WorkItem[] = [
    ...orders.map((o) => ({
      key: `order:${o.id}`,
      run: () => processPerpOrder(deps, o),
      release: () =>
        deps.store.orders.update(o.id, unlease(), { fence: o.fence }),
    })),
    ...tasks.map((t) => ({
      key: `task:${t.id}`,
      run: () => processTask(deps, t),
      release: () =>
        deps.store.tasks.update(t.id, unlease(), { fence: t.fence }),
    })),
    ...batches.map((b) => ({
      key: `binding:${b.id}`,
      run: () => processBindingBatch(deps, b),
      release: () =>
        deps.store.bindingBatches.update(b.id, unlease(), {
          fence: b.fence,
        }),
    })),
  ]
  const results = await Promise.allSettled(
    work.map(async (w) => {
      track?.inFlight.add(w.key)
      track?.failed.delete(w.key)
      try {
        return await w.run()
      } catch (err) {
        // its lease is kept until expiry (the retry's backoff); a
        // stopping worker gives it back
        track?.failed.set(w.key, {
          until: Date.parse(now) + deps.leaseMs,
          release: w.release,
        })
        throw err
      } finally {
        track?.inFlight.delete(w.key)
      }
    }),
  )
  for (const r of results) {
    if (r.status === 'rejected' && !(r.reason instanceof FencedOutError)) {
      deps.logger.error(
        'work item failed; it is retried when its lease expires',
        {
          workerId: deps.workerId,
          error:
            r.reason instanceof Error ? r.reason.message : String(r.reason),
        },
      )
    }
  }
  if (!sweep) return work.length
  return work.length + (await runMonitorSweep(deps)).written
}

interface WorkItem {
  readonly key: string
  run(): Promise<unknown>
  release(): Promise<unknown>
}

/** What a worker's rounds are doing, for a stop to report and tidy. */
export interface RoundTracker {
  /** items being advanced now, as `order:<id>`, `task:<id>`, `binding:<id>` */
  readonly inFlight: Set<string>
  /** items that failed and kept their lease (until when), with how to give it back */
  readonly failed: Map<
    string,
    { readonly until: number; release(): Promise<unknown> }
  >
}

/** What a stop left behind. */
export interface WorkerStopReport {
  /** items still being advanced when the deadline passed: their leases expire */
  readonly left: readonly string[]
  /** leases of failed items given back for another worker to take at once */
  readonly released: number
}

/** How long a stop waits for the items in flight. */
export const WORKER_STOP_DEADLINE_MS = 10_000

export interface WorkerOptions {
  /** rows claimed per round and kind @default 16 */
  readonly batch?: number
  /** longest idle wait between rounds, ms @default 250 */
  readonly idleMs?: number
  /** heartbeat period, ms @default 2_000 */
  readonly heartbeatMs?: number
  /**
   * how old a stored account snapshot may grow (idle accounts are read
   * this often) @default SNAPSHOT_REFRESH_MS (60 s)
   */
  readonly snapshotRefreshMs?: number
}

export interface RunningWorker {
  /** Runs a round now instead of after the idle wait. */
  wake(): void
  /**
   * Claims nothing more, lets the round in progress finish (its venue
   * calls answered) within `deadlineMs`, then gives back the leases of
   * items that failed. An item still in flight at the deadline keeps its
   * lease (as after a crash) and is reported.
   */
  stop(deadlineMs?: number): Promise<WorkerStopReport>
  /** Settles when the worker stops (by stop() or by being fenced). */
  readonly done: Promise<'stopped' | 'fenced'>
}

/**
 * The worker loop: heartbeat, claim due orders and tasks under leases,
 * advance each, repeat. Wakes at once on a local `wake()` or a store
 * notification (LISTEN/NOTIFY on PostgreSQL); otherwise it looks again after
 * `idleMs` for work whose retry time has come. Beside it, once per
 * MONITOR_MS, the monitor sweep evaluates the running tasks this worker
 * watches and hands a task whose close rule holds to the claim loop. A
 * fenced worker stops both.
 */
export function startWorker(
  given: WorkerDeps,
  options: WorkerOptions = {},
): RunningWorker {
  // one positions read per venue account serves every task of its owner
  const deps: WorkerDeps = {
    ...given,
    adapters: shareAccountReads(given.adapters, given.clock),
  }
  const batch = options.batch ?? 16
  const idleMs = options.idleMs ?? 250
  const heartbeatMs = options.heartbeatMs ?? 2_000
  let stopping = false
  let wakeUp: (() => void) | undefined
  let pending = false
  const wake = () => {
    pending = true
    wakeUp?.()
  }
  const startedAt = msToIso(deps.clock.now())
  let lastBeat = 0

  const armDeadManSwitches = createDeadManSwitches(deps)
  let fenced = false
  let beating: Promise<boolean> | undefined
  /** false once this worker is fenced */
  const beat = (): Promise<boolean> => {
    beating ??= heartbeat().finally(() => {
      beating = undefined
    })
    return beating
  }
  const heartbeat = async (): Promise<boolean> => {
    const now = deps.clock.now()
    if (fenced) return false
    if (now - lastBeat < heartbeatMs) return true
    lastBeat = now
    const mine = await deps.store.workers.get(deps.workerId)
    if (mine?.fencedAt) {
      fenced = true
      return false
    }
    await deps.store.workers.heartbeat({
      id: deps.workerId,
      startedAt,
      heartbeatAt: msToIso(now),
      fencedAt: null,
      host: deps.process?.host ?? null,
      pid: deps.process?.pid ?? null,
    })
    if (deps.process) await fenceGoneWorkers(deps, deps.process, now)
    // not awaited: a send waiting for a venue's budget must not hold the
    // heartbeat (it never rejects; a call while one is in flight returns)
    void armDeadManSwitches(now)
    return true
  }

  // the positions and balances the API serves, kept from the sweep's
  // reads and a slow refresh of idle accounts, on a loop of their own
  const snapshots = createAccountSnapshots(deps, {
    refreshMs: options.snapshotRefreshMs,
  })
  let cutSnapshotPause: (() => void) | undefined
  const snapshotting = (async () => {
    while (!stopping) {
      try {
        await snapshots.tick()
      } catch (err) {
        deps.logger.error('account snapshots failed', {
          workerId: deps.workerId,
          error: err instanceof Error ? err.message : String(err),
        })
      }
      if (stopping) break
      await pause(snapshots.tickMs, (cut) => {
        cutSnapshotPause = cut
      })
      cutSnapshotPause = undefined
    }
  })()

  const track: RoundTracker = { inFlight: new Set(), failed: new Map() }
  // the claim loop never waits for the sweep's reads: it runs on its own
  const round = () => {
    // a failed item's lease has expired: nothing of ours to give back
    const now = deps.clock.now()
    for (const [key, f] of track.failed) {
      if (f.until <= now) track.failed.delete(key)
    }
    return runWorkerRound(deps, batch, false, track)
  }
  let cutSweepPause: (() => void) | undefined
  const sweeping = (async () => {
    /** the last sweep's period: when the next one will look again */
    let leadMs = MONITOR_MS
    while (!stopping) {
      const started = deps.clock.now()
      try {
        const swept = await runMonitorSweep(deps, {
          leadMs,
          onAccountRead: snapshots.observe,
        })
        // a close rule holds: the claim loop takes the task now
        if (swept.escalated > 0) wake()
      } catch (err) {
        deps.logger.error('monitor sweep failed', {
          workerId: deps.workerId,
          error: err instanceof Error ? err.message : String(err),
        })
      }
      if (stopping) break
      await pause(
        Math.max(0, started + MONITOR_MS - deps.clock.now()),
        (cut) => {
          cutSweepPause = cut
        },
      )
      cutSweepPause = undefined
      leadMs = Math.max(MONITOR_MS, deps.clock.now() - started)
    }
  })()

  // the heartbeat says the process lives, also while a round waits on a
  // venue for longer than other workers wait before taking its leases
  const heartbeatTimer = setInterval(() => {
    beat()
      .then((alive) => {
        if (!alive) wake()
      })
      .catch((err: unknown) => {
        deps.logger.error('worker heartbeat failed', {
          workerId: deps.workerId,
          error: err instanceof Error ? err.message : String(err),
        })
      })
  }, heartbeatMs)
  heartbeatTimer.unref?.()

  const done = (async (): Promise<'stopped' | 'fenced'> => {
    const unlisten = await deps.store.listen(WORK_CHANNEL, wake)
    try {
      while (!stopping) {
        try {
          if (!(await beat())) return 'fenced'
          pending = false
          const did = await round()
          if (did > 0 || pending || stopping) continue
        } catch (err) {
          deps.logger.error('worker round failed', {
            workerId: deps.workerId,
            error: err instanceof Error ? err.message : String(err),
          })
        }
        await pause(idleMs, (cut) => {
          wakeUp = cut
        })
        wakeUp = undefined
      }
      return 'stopped'
    } finally {
      stopping = true
      clearInterval(heartbeatTimer)
      cutSweepPause?.()
      cutSnapshotPause?.()
      await unlisten()
      await sweeping
      await snapshotting
      await beating
    }
  })()

  return {
    wake,
    done,
    async stop(deadlineMs = WORKER_STOP_DEADLINE_MS) {
      stopping = true
      wakeUp?.()
      cutSweepPause?.()
      cutSnapshotPause?.()
      let timer: ReturnType<typeof setTimeout> | undefined
      await Promise.race([
        done,
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, deadlineMs)
        }),
      ])
      clearTimeout(timer)
      let released = 0
      for (const [key, failed] of track.failed) {
        if (track.inFlight.has(key)) continue
        try {
          if (await failed.release()) released++
        } catch (err) {
          deps.logger.error('a lease could not be given back; it expires', {
            workerId: deps.workerId,
            item: key,
            error: err instanceof Error ? err.message : String(err),
          })
        }
      }
      track.failed.clear()
      return { left: [...track.inFlight], released }
    },
  }
}

/** Waits `ms`, or less if the function handed to `onCut` is called. */
function pause(ms: number, onCut: (cut: () => void) => void): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms)
    onCut(() => {
      clearTimeout(timer)
      resolve()
    })
  })
}
