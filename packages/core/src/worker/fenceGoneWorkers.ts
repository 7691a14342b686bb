import { msToIso } from '../util/time.js'
import { workerLocksPrefix } from './accountMarketLock.js'
import type { WorkerDeps, WorkerProcess } from './workerDeps.js'

/**
 * Fences the workers of this machine whose process is gone (a crashed or
 * killed predecessor of a restarted `dn up`, a SIGKILLed `dn worker`) and
 * releases their locks, so their leases are claimable and their accounts
 * lockable at once instead of after their expiry. Only
 * a worker registered from this host and process namespace is judged: a
 * pid means nothing elsewhere. One that has our pid is gone too (we are
 * that pid now).
 * @returns the ids fenced
 */
export async function fenceGoneWorkers(
  deps: Pick<WorkerDeps, 'store' | 'workerId' | 'logger'>,
  self: WorkerProcess,
  now: number,
): Promise<string[]> {
  if (self.host === null) return []
  const gone = (await deps.store.workers.list()).filter(
    (w) =>
      w.id !== deps.workerId &&
      w.fencedAt === null &&
      w.host === self.host &&
      typeof w.pid === 'number' &&
      (w.pid === self.pid || !self.isRunning(w.pid)),
  )
  const fenced: string[] = []
  for (const w of gone) {
    if (await deps.store.workers.fence(w.id, msToIso(now))) {
      fenced.push(w.id)
      // the account-market locks it held (`<workerId>|order|…`) go too:
      // its orders are taken over now, not when those locks expire
      await deps.store.locks.releaseHeldBy(workerLocksPrefix(w.id))
      deps.logger.info(
        'a worker of this machine is gone: its work is taken over now',
        {
          workerId: deps.workerId,
          gone: w.id,
          pid: w.pid,
          lastHeartbeat: w.heartbeatAt,
        },
      )
    }
  }
  return fenced
}
