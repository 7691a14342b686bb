import type { WorkerDeps } from './workerDeps.js'

/** A worker whose heartbeat is older than this is not counted live. */
export const LIVE_WORKER_MS = 10_000

/**
 * Which owners this worker's monitor sweep watches: the live, unfenced
 * workers share owners by a hash of the owner, so each account's positions
 * are read by one worker, not by every worker watching one of its tasks.
 * While workers come and go a task may be watched twice for a moment
 * (harmless: the sweep's writes are fenced) or not at all for a sweep.
 */
export async function ownerShard(
  deps: Pick<WorkerDeps, 'store' | 'workerId'>,
  now: number,
): Promise<(owner: string) => boolean> {
  const live = (await deps.store.workers.list())
    .filter(
      (w) =>
        w.fencedAt === null &&
        w.id !== deps.workerId &&
        now - Date.parse(w.heartbeatAt) <= LIVE_WORKER_MS,
    )
    .map((w) => w.id)
  if (live.length === 0) return () => true
  const ids = [...live, deps.workerId].sort()
  const me = ids.indexOf(deps.workerId)
  return (owner) => fnv1a(owner.toLowerCase()) % ids.length === me
}

/** 32-bit FNV-1a: spreads owner addresses evenly, the same in every process. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h
}
