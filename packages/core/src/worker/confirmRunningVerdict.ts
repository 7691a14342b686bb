import type { TaskRecord } from '../domain/task.js'
import type { Leg } from '../domain/taskEngineState.js'
import type {
  VenueAdapter,
  VenueCredential,
  VenuePosition,
} from '../ports/venueAdapter.js'
import {
  evaluateRunningTask,
  type LegReading,
  type RunningVerdict,
} from './evaluateRunningTask.js'

/**
 * `evaluateRunningTask`, with a leg that reads gone confirmed before the
 * task acts on it: a snapshot or a stream's push may predate the leg's
 * own fills (another worker placed them, a stream stalled, a cached read
 * from before the open), and closing the other leg on it leaves a naked
 * position. The gone leg is read again, sent now (`fresh`), and the task
 * is evaluated with what that read shows.
 * @throws what the fresh read throws (the caller evaluates again later)
 */
export async function confirmRunningVerdict(
  task: TaskRecord,
  legs: Readonly<Record<Leg, LegReading>>,
  now: number,
  fundingGraceMs: number,
  readNow: (leg: Leg) => Promise<VenuePosition | undefined>,
): Promise<RunningVerdict> {
  const verdict = evaluateRunningTask(task, legs, now, fundingGraceMs)
  const gone = verdict.liquidatedLeg
  if (verdict.close !== 'leg_liquidated' || gone === null) return verdict
  const position = await readNow(gone)
  return evaluateRunningTask(
    task,
    { ...legs, [gone]: { ...legs[gone], position } },
    now,
    fundingGraceMs,
  )
}

/** A leg's position in a read sent now (`ReadOptions.fresh`), urgently. */
export async function readLegNow(
  adapter: VenueAdapter,
  cred: VenueCredential,
  market: string,
): Promise<VenuePosition | undefined> {
  const held = await adapter.positions(cred, {
    fresh: true,
    priority: 'urgent',
  })
  return held.find((p) => p.market === market)
}
