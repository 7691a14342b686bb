import type { WorkKind } from '../ports/store.js'
import { errorMessage } from '../util/errorMessage.js'
import { msToIso } from '../util/time.js'
import { createAccountSnapshots } from './accountSnapshots.js'
import { createDeadManSwitches } from './deadManSwitches.js'
import { fenceGoneWorkers } from './fenceGoneWorkers.js'
import { runMonitorSweep } from './monitorSweep.js'
import { MONITOR_MS } from './processTask.js'
import { shareAccountReads } from './shareAccountReads.js'
import { WORK_CHANNEL, type WorkerDeps } from './workerDeps.js'
import {
  type ClaimSlots,
  claimWork,
  runWorkItem,
  type WorkItem,
} from './workItems.js'

/**
 * One round: claim due orders and tasks (up to `batch` of each) and advance
 * them concurrently, then (unless `sweep` is false) evaluate the running
 * tasks this worker watches (`runMonitorSweep`). `startWorker` does not
 * run rounds: it claims continuously; tests and benchmarks step with this.
 * A failed item keeps its lease until expiry and is retried then; a
 * fenced-out item is dropped silently.
 * @returns how many items were advanced, plus the watched rows written
 */
export async function runWorkerRound(
  deps: WorkerDeps,
  batch = 16,
  sweep = true,
): Promise<number> {
  const work = await claimWork(deps, {
    order: batch,
    task: batch,
    binding: batch,
  })
  await Promise.all(work.map((item) => runWorkItem(deps, item)))
  if (!sweep) return work.length
  return work.length + (await runMonitorSweep(deps)).written
}

/**
 * Items of each kind one worker advances at once. Orders mostly wait on
 * venues (and their budgets, which bound what is sent), so a burst of
 * orders is claimed at once rather than queued behind a few slots.
 */
export const WORKER_SLOTS = 64

/** A run this long is worth an operator's look (its lease is renewed). */
const LONG_RUN_MS = 60_000

/** A claimed item being advanced, and when its run settles. */
interface InFlight {
  readonly item: WorkItem
  readonly startedAt: number
  warned: boolean
  /** a renewal is on its way */
  renewing: boolean
  readonly done: Promise<void>
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
  /** items of each kind advanced at once @default WORKER_SLOTS (64) */
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
  const batch = options.batch ?? WORKER_SLOTS
  const idleMs = options.idleMs ?? 250
  const heartbeatMs = options.heartbeatMs ?? 2_000
  let stopping = false
  let wakeUp: (() => void) | undefined
  let pending = false
  const wake = () => {
    pending = true
    for (const kind of KINDS) wanted.add(kind)
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
  // what a task's own orders changed is in the snapshots before the task
  // says it is done (completeOperation)
  const workDeps: WorkerDeps = {
    ...deps,
    refreshAccounts: deps.refreshAccounts ?? snapshots.refreshNow,
  }
  let cutSnapshotPause: (() => void) | undefined
  const snapshotting = (async () => {
    while (!stopping) {
      try {
        await snapshots.tick()
      } catch (err) {
        deps.logger.error('account snapshots failed', {
          workerId: deps.workerId,
          error: errorMessage(err),
        })
      }
      if (stopping) break
      await pause(snapshots.tickMs, (cut) => {
        cutSnapshotPause = cut
      })
      cutSnapshotPause = undefined
    }
  })()

  // items that failed and kept their lease (until `leaseUntil`, the
  // retry's backoff), by key: a stop gives those leases back
  const failed = new Map<string, WorkItem>()
  const KINDS: readonly WorkKind[] = ['order', 'task', 'binding']
  // the runs in flight, by kind and row id: a finished one frees its slot
  // at once, and new work is claimed while slow ones still run
  const running: Record<WorkKind, Map<string, InFlight>> = {
    order: new Map(),
    task: new Map(),
    binding: new Map(),
  }
  // kinds to look at on the next claim: all of them after a wake or an
  // idle wait; only a finished item's own kind otherwise
  const wanted = new Set<WorkKind>(KINDS)
  const claimDue = async (): Promise<number> => {
    // a failed item's lease has expired: nothing of ours to give back
    const now = deps.clock.now()
    for (const [key, item] of failed) {
      if (item.leaseUntil <= now) failed.delete(key)
    }
    const slots: Partial<Record<WorkKind, number>> = {}
    const exclude: string[] = []
    const busy = new Set<string>()
    for (const kind of KINDS) {
      const free = batch - running[kind].size
      if (wanted.has(kind) && free > 0) slots[kind] = free
      for (const [id, { item }] of running[kind]) {
        exclude.push(id)
        for (const m of item.markets) busy.add(m)
      }
    }
    for (const kind of Object.keys(slots) as WorkKind[]) wanted.delete(kind)
    if (Object.keys(slots).length === 0) return 0
    const items = await claimWork(workDeps, slots as ClaimSlots, exclude, [
      ...busy,
    ])
    for (const item of items) {
      const runs = running[item.kind]
      runs.set(item.id, {
        item,
        startedAt: deps.clock.now(),
        warned: false,
        renewing: false,
        done: runWorkItem(workDeps, item).then((ok) => {
          if (ok) failed.delete(item.key)
          else failed.set(item.key, item)
          runs.delete(item.id)
          // its slot is free: look for more of its kind now
          pending = true
          wanted.add(item.kind)
          wakeUp?.()
        }),
      })
    }
    // a kind that filled its slots may have more waiting
    for (const kind of KINDS) {
      const claimed = items.filter((i) => i.kind === kind).length
      if (claimed > 0 && claimed === slots[kind]) wanted.add(kind)
    }
    return items.length
  }

  // A run waiting on a venue (its budget, a slow answer) may outlast its
  // lease: while this worker lives its leases are renewed, so a slow item
  // is not taken over by another worker (whose run would be as slow, and
  // be taken back: neither would finish). A dead worker's leases are
  // taken over as ever, once its heartbeat stops.
  const renewing = setInterval(
    () => {
      const now = deps.clock.now()
      for (const kind of KINDS) {
        for (const run of running[kind].values()) {
          const { item } = run
          if (!run.warned && now - run.startedAt > LONG_RUN_MS) {
            // its lease is renewed while it runs: say so, once
            run.warned = true
            deps.logger.warn?.('a work item has been running for a minute', {
              workerId: deps.workerId,
              item: item.key,
              ms: now - run.startedAt,
            })
          }
          if (run.renewing || item.leaseUntil - now > deps.leaseMs / 2) {
            continue
          }
          run.renewing = true
          item
            .renew(now + deps.leaseMs)
            .catch((err: unknown) => {
              deps.logger.error('a lease could not be renewed', {
                workerId: deps.workerId,
                item: item.key,
                error: errorMessage(err),
              })
            })
            .finally(() => {
              run.renewing = false
            })
        }
      }
    },
    Math.max(50, Math.floor(deps.leaseMs / 4)),
  )
  renewing.unref?.()
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
          error: errorMessage(err),
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
          error: errorMessage(err),
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
          await claimDue()
          if (pending || stopping) continue
        } catch (err) {
          deps.logger.error('worker claim failed', {
            workerId: deps.workerId,
            error: errorMessage(err),
          })
        }
        const idle = await pause(idleMs, (cut) => {
          wakeUp = cut
        })
        wakeUp = undefined
        // looked at nothing for idleMs: retries may have come due
        if (idle) for (const kind of KINDS) wanted.add(kind)
      }
      return 'stopped'
    } finally {
      stopping = true
      // the runs in flight finish (their venue calls answered) first
      await Promise.all(
        KINDS.flatMap((k) => [...running[k].values()].map((r) => r.done)),
      )
      clearInterval(renewing)
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
      const left = KINDS.flatMap((k) =>
        [...running[k].values()].map((r) => r.item.key),
      )
      let released = 0
      for (const [key, item] of failed) {
        if (left.includes(key)) continue
        try {
          if (await item.release()) released++
        } catch (err) {
          deps.logger.error('a lease could not be given back; it expires', {
            workerId: deps.workerId,
            item: key,
            error: errorMessage(err),
          })
        }
      }
      failed.clear()
      return { left, released }
    },
  }
}

/**
 * Waits `ms`, or less if the function handed to `onCut` is called.
 * @returns true when the whole wait ran out
 */
function pause(ms: number, onCut: (cut: () => void) => void): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(true), ms)
    onCut(() => {
      clearTimeout(timer)
      resolve(false)
    })
  })
}
