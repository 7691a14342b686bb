import type { LedgerHolder } from '../domain/positionLedger.js'
import type { TaskRecord } from '../domain/task.js'
import type { Leg } from '../domain/taskEngineState.js'
import type {
  VenueAdapter,
  VenueCredential,
  VenuePosition,
} from '../ports/venueAdapter.js'
import { dec } from '../util/decimal.js'
import {
  type LegHolding,
  legHolding,
  legMarket,
  sameHolders,
} from './accountMarketLedger.js'
import {
  evaluateRunningTask,
  type LegReading,
  type RunningVerdict,
} from './evaluateRunningTask.js'
import { externalChangeNote } from './externalChange.js'
import { legSize as recorded, signedLegSize } from './taskLegOrders.js'

const LEGS: readonly Leg[] = ['long', 'short']

/** How a running task's legs are checked against their account markets. */
interface LegChecks {
  /** the leg's position in a read sent now (`readLegNow`) */
  readNow(leg: Leg): Promise<VenuePosition | undefined>
  /** the holders of the leg's account market, as the store has them now */
  holders(leg: Leg): Promise<LedgerHolder[]>
  /**
   * the venue's net (signed) the caller expects on the leg's account
   * market: what the running tasks it knows of hold there @default the
   * leg's own booked size
   */
  expectedNet?(leg: Leg): string
}

/**
 * `evaluateRunningTask` against the venues' net positions and each
 * account market's ledger:
 *
 * - a leg whose venue net differs from what the caller expects (another
 *   holder shares it, or something changed it) is evaluated by its own
 *   part of the net (`legHolding`), so a task is never judged by another
 *   holder's orders;
 * - a leg that reads gone is confirmed before the task acts on it: a
 *   snapshot may predate the leg's own fills, or another holder's. It is
 *   read again, sent now, between two reads of its holders; holders that
 *   moved meanwhile leave the verdict to the next round.
 * @throws what the fresh read throws (the caller evaluates again later)
 */
export async function confirmRunningVerdict(
  task: TaskRecord,
  legs: Readonly<Record<Leg, LegReading>>,
  now: number,
  fundingGraceMs: number,
  checks: LegChecks,
): Promise<RunningVerdict> {
  const expected = (l: Leg) =>
    checks.expectedNet?.(l) ?? signedLegSize(task, l).toFixed()
  const read = { ...legs }
  const holdings: Partial<Record<Leg, LegHolding>> = {}
  for (const l of LEGS) {
    const net = legs[l].position?.size ?? '0'
    if (dec(net).eq(expected(l))) continue
    holdings[l] = legHolding(task, l, await checks.holders(l), net)
    read[l] = { ...legs[l], held: holdings[l].held }
  }
  const verdict = evaluateRunningTask(task, read, now, fundingGraceMs)
  const gone = verdict.liquidatedLeg
  if (verdict.close !== 'leg_liquidated' || gone === null) {
    return withEvidence(task, verdict, holdings)
  }
  const before = await checks.holders(gone)
  const position = await checks.readNow(gone)
  const after = await checks.holders(gone)
  if (sameHolders(before, after)) {
    holdings[gone] = legHolding(task, gone, after, position?.size ?? '0')
  } else {
    // an order of another holder moved meanwhile: not judged on it
    delete holdings[gone]
  }
  const held = holdings[gone]?.held ?? recorded(task, gone)
  return withEvidence(
    task,
    evaluateRunningTask(
      task,
      { ...read, [gone]: { ...legs[gone], position, held } },
      now,
      fundingGraceMs,
    ),
    holdings,
  )
}

/**
 * A verdict that closes the task on a leg its ledger found shrunk by a
 * change made outside dn, with that change named.
 */
function withEvidence(
  task: TaskRecord,
  verdict: RunningVerdict,
  holdings: Partial<Record<Leg, LegHolding>>,
): RunningVerdict {
  if (verdict.close !== 'leg_liquidated' && verdict.close !== 'size_mismatch')
    return verdict
  for (const l of LEGS) {
    const h = holdings[l]
    if (!h || h.reading.external === '0') continue
    if (!dec(h.held).lt(recorded(task, l))) continue
    const m = legMarket(task, l)
    return {
      ...verdict,
      evidence: {
        venue: m.venue,
        market: m.market,
        note: externalChangeNote(m, l, h.reading, h.held, recorded(task, l)),
      },
    }
  }
  return verdict
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
