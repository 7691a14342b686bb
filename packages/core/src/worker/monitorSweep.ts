import type { TaskRecord } from '../domain/task.js'
import type { Leg } from '../domain/taskEngineState.js'
import type { VenueId } from '../domain/venue.js'
import {
  UncertainSubmissionError,
  VenueUnavailableError,
} from '../errors/venue.js'
import { CredentialUnavailableError } from '../errors/worker.js'
import type { RequestPriority } from '../limits/requestBudget.js'
import type { MarketQuote } from '../ports/marketData.js'
import type { TaskObservation } from '../ports/store.js'
import type { VenueCredential, VenuePosition } from '../ports/venueAdapter.js'
import { dec, decString } from '../util/decimal.js'
import { errorMessage } from '../util/errorMessage.js'
import { createSharedRead, type SharedRead } from '../util/sharedRead.js'
import { msToIso } from '../util/time.js'
import { legMarket, storeHolders } from './accountMarketLedger.js'
import { accountMarketLock } from './accountMarketLock.js'
import type { AccountRead } from './accountSnapshots.js'
import { confirmRunningVerdict, readLegNow } from './confirmRunningVerdict.js'
import {
  changedShows,
  closeStart,
  type LegReading,
  type RunningVerdict,
} from './evaluateRunningTask.js'
import { reportExternalChange } from './externalChange.js'
import { fnv1a, ownerShard } from './ownerShard.js'
import { workerCredential } from './resolveCredential.js'
import { retryNote } from './retryNote.js'
import { positionsReadAt } from './shareAccountReads.js'
import { marketOf, signedLegSize, venueOf } from './taskLegOrders.js'
import {
  NEAR_THRESHOLD_MAX_AGE_MS,
  POSITIONS_MAX_AGE_MS,
} from './taskPhases.js'
import { createSweepSampler } from './taskSamples.js'
import type { WorkerDeps } from './workerDeps.js'

const LEGS: readonly Leg[] = ['long', 'short']
/**
 * How old a positions snapshot the sweep evaluates with when the request
 * budget holds its read back (a snapshot our own orders made stale is
 * never used).
 */
export const BUDGET_FALLBACK_MS = 60_000
/**
 * How far past its due age a routine account's snapshot still serves the
 * sweep while its read is out: the sweep does not wait on a slow routine
 * read, so an account falling due is read within a round (1 s) of it, not
 * after the slowest read of the round before (Hyperliquid's REST accounts,
 * due every 24.8 s, went 30.5 s between reads at p50 while rounds waited
 * on reads the budget held back).
 */
const STALE_WHILE_READ_MS = 10_000
/** Rows read per page of the watched tasks. */
const PAGE = 2_000

/** What one sweep did. */
export interface SweepResult {
  /** running tasks evaluated against the snapshots */
  readonly evaluated: number
  /** rows written because something they show changed */
  readonly written: number
  /** tasks put to closing, for a claim, because a close rule holds */
  readonly escalated: number
}

/**
 * The monitor sweep: every running task this worker watches (unleased,
 * its owner in this worker's shard; one due for a claim, such as its
 * funding on the hour, is watched until it is claimed) is evaluated against
 * the latest market and account snapshots, which are read once per market
 * and once per account for the whole sweep. A task's row is written only
 * when something it shows changed, all in one transaction per page; a task
 * whose close rule holds goes to `closing` and is made due, and the claim
 * loop sends its close under a lease.
 */
export interface SweepOptions {
  /**
   * ms until the next sweep (the last sweep's period): an account read
   * falls due within it is read in this one, so reads keep their cadence
   * however long a sweep takes @default 0
   */
  readonly leadMs?: number | undefined
  /**
   * Told each account's positions as the sweep read them (the account
   * snapshots the API serves are kept from these reads)
   */
  readonly onAccountRead?: ((read: AccountRead) => void) | undefined
}

export async function runMonitorSweep(
  deps: WorkerDeps,
  options: SweepOptions = {},
): Promise<SweepResult> {
  const now = deps.clock.now()
  const mine = await ownerShard(deps, now)
  const watched: TaskRecord[] = []
  for (;;) {
    const page = await deps.store.tasks.listWatched({
      afterId: watched[watched.length - 1]?.id,
      limit: PAGE,
    })
    watched.push(...page)
    if (page.length < PAGE) break
  }
  const tasks = watched.filter(
    (t) =>
      mine(t.owner) &&
      (t.engineState?.op ?? null) === null &&
      t.closeRequestedAt === null &&
      t.resizeRequest === null,
  )
  streamBusiest(deps, tasks)
  // the budget is the deployment's: every worker's accounts count
  const snapshots = snapshotReader(
    deps,
    positionsAges(deps, watched),
    options.leadMs ?? 0,
    options.onAccountRead,
  )
  snapshots.want(tasks)
  // every account and market is read at once, not one after the other;
  // the tasks are then evaluated in turn against what arrived
  snapshots.prefetch(tasks)
  // what the owner's running tasks hold on each account market: a venue
  // net that differs reads that market's ledger
  const runningNets = legNets(watched.filter((t) => mine(t.owner)))
  const holdersOf = storeHolders(deps)
  let evaluated = 0
  let written = 0
  let escalated = 0
  const sampler = createSweepSampler(deps)
  for (let i = 0; i < tasks.length; i += PAGE) {
    const entries: TaskObservation[] = []
    for (const task of tasks.slice(i, i + PAGE)) {
      const legs = await snapshots.legs(task)
      const at = msToIso(deps.clock.now())
      if (legs === null) continue
      if (legs instanceof CredentialUnavailableError) {
        // a venue the task cannot use: its claim ends it (abandonTask), so
        // it is not evaluated, nor logged, every sweep
        if (task.nextCheckAt !== null && Date.parse(task.nextCheckAt) > now) {
          escalated++
          entries.push({
            id: task.id,
            fence: task.fence,
            patch: { nextCheckAt: at, updatedAt: at },
          })
        }
        continue
      }
      // a task that could not be evaluated shows why, once
      const noteRetry = (err: unknown) => {
        const error = retryNote(
          err instanceof Error ? err : new Error(String(err)),
        )
        if (task.error === error) return
        entries.push({
          id: task.id,
          fence: task.fence,
          patch: { error, updatedAt: at },
        })
      }
      if (legs instanceof Error) {
        noteRetry(legs)
        continue
      }
      let verdict: RunningVerdict
      try {
        verdict = await confirmRunningVerdict(
          task,
          legs,
          now,
          deps.fundingGraceMs,
          {
            readNow: (l) => snapshots.readNow(task, l),
            holders: (l) => holdersOf(legMarket(task, l)),
            expectedNet: (l) => runningNets.get(legKey(task, l)) ?? '0',
          },
        )
      } catch (err) {
        // the leg could not be confirmed gone: nothing is done on a
        // reading that may be stale; the next sweep looks again
        noteRetry(err)
        continue
      }
      evaluated++
      sampler.offer(task, legs, verdict, now)
      const changed = changedShows(task, verdict) ?? {}
      const closing = closeStart(task, verdict)
      if (closing !== null) {
        // closing at once: the claim that sends the close reads no
        // positions at routine priority again
        escalated++
        if (verdict.evidence)
          reportExternalChange(deps, task.id, verdict.evidence)
        entries.push({
          id: task.id,
          fence: task.fence,
          patch: { ...changed, ...closing, nextCheckAt: at, updatedAt: at },
        })
      } else if (Object.keys(changed).length > 0) {
        entries.push({
          id: task.id,
          fence: task.fence,
          patch: { ...changed, updatedAt: at },
        })
      }
    }
    written += (await deps.store.tasks.recordObservations(entries)).length
  }
  await sampler.flush()
  return { evaluated, written, escalated }
}

/** The name of a leg's account market. */
function legKey(task: TaskRecord, l: Leg): string {
  return accountMarketLock(task.owner, venueOf(task, l), marketOf(task, l))
}

/** The signed sizes `tasks` hold on each account market, added up. */
function legNets(tasks: readonly TaskRecord[]): Map<string, string> {
  const nets = new Map<string, string>()
  for (const task of tasks) {
    for (const l of LEGS) {
      const key = legKey(task, l)
      nets.set(
        key,
        decString(dec(nets.get(key) ?? '0').add(signedLegSize(task, l))),
      )
    }
  }
  return nets
}

/**
 * How old each venue's positions snapshots may be in this sweep: the
 * accounts of every watched task, read once each within the age, must fit
 * in what routine monitoring may send to the venue's per-IP limits.
 */
function positionsAges(
  deps: WorkerDeps,
  watched: readonly TaskRecord[],
): ReadonlyMap<VenueId, number> {
  const ages = new Map<VenueId, number>()
  for (const [venue, byOwner] of tasksByOwner(watched)) {
    const adapter = deps.adapters[venue]
    // a streamed account costs no request
    let read = 0
    for (const owner of byOwner.keys()) {
      if (!adapter.accountStreamed?.(owner)) read++
    }
    ages.set(venue, positionsMaxAgeMs(read, adapter.accountReadsPerMinute?.()))
  }
  return ages
}

/** Each venue's owners among `tasks`, with how many legs each has there. */
function tasksByOwner(
  tasks: readonly TaskRecord[],
): Map<VenueId, Map<string, number>> {
  const counts = new Map<VenueId, Map<string, number>>()
  for (const task of tasks) {
    for (const l of LEGS) {
      const venue = venueOf(task, l)
      let byOwner = counts.get(venue)
      if (!byOwner) {
        byOwner = new Map()
        counts.set(venue, byOwner)
      }
      byOwner.set(task.owner, (byOwner.get(task.owner) ?? 0) + 1)
    }
  }
  return counts
}

/**
 * An account's own share of `ageMs`, 1 to 1.05 times it by a hash of the
 * owner: accounts first read together drift apart, so their reads do not
 * all fall due in one sweep and burst past the budget.
 */
function spread(ageMs: number, owner: string): number {
  return Math.round(ageMs * (1 + (fnv1a(owner.toLowerCase()) % 1000) / 20_000))
}

/**
 * Tells each venue this worker's accounts there, the busiest (most
 * watched tasks) first, so a venue with user streams streams those.
 */
function streamBusiest(deps: WorkerDeps, tasks: readonly TaskRecord[]) {
  const creds = sweepCredentials(deps)
  for (const [venue, byOwner] of tasksByOwner(tasks)) {
    const busiest = [...byOwner].sort(
      (a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1),
    )
    deps.adapters[venue].streamAccounts?.(
      busiest.map(([owner]) => ({
        owner,
        credential: async () =>
          (await creds.get(`${owner}|${venue}`, CREDENTIAL_KEEP_MS)).value,
      })),
    )
  }
}

/**
 * The age an account's positions snapshot may reach when `accounts` are
 * read in turn at `readsPerMinute` at most: POSITIONS_MAX_AGE_MS, or longer
 * where that would spend more (undefined: no per-IP limit to keep).
 * @example positionsMaxAgeMs(100, 90) // 66_667: 100 reads take 1.11 min
 */
export function positionsMaxAgeMs(
  accounts: number,
  readsPerMinute: number | undefined,
): number {
  if (readsPerMinute === undefined || !(readsPerMinute > 0)) {
    return POSITIONS_MAX_AGE_MS
  }
  return Math.max(
    POSITIONS_MAX_AGE_MS,
    Math.ceil((accounts / readsPerMinute) * 60_000),
  )
}

/**
 * The snapshots one sweep reads: each market's quote and each account's
 * positions once, however many tasks share them. An account with a task
 * near a threshold is read younger and ahead of routine reads.
 */
function snapshotReader(
  deps: WorkerDeps,
  ages: ReadonlyMap<VenueId, number>,
  leadMs: number,
  onAccountRead: ((read: AccountRead) => void) | undefined,
) {
  const quotes = new Map<string, Promise<MarketQuote>>()
  const creds = sweepCredentials(deps)
  const accounts = new Map<string, { near: boolean }>()
  const positions = new Map<string, Promise<VenuePosition[]>>()

  const credential = async (owner: string, venue: VenueId) =>
    (await creds.get(`${owner}|${venue}`, CREDENTIAL_KEEP_MS)).value

  const legReading = async (task: TaskRecord, l: Leg): Promise<LegReading> => {
    const venue = venueOf(task, l)
    const market = marketOf(task, l)
    const adapter = deps.adapters[venue]
    const qKey = `${venue}|${market}`
    let quote = quotes.get(qKey)
    if (!quote) {
      quote = handled(adapter.quote(market))
      quotes.set(qKey, quote)
    }
    const aKey = `${task.owner}|${venue}`
    let held = positions.get(aKey)
    if (!held) {
      const near = accounts.get(aKey)?.near === true
      const priority: RequestPriority = near ? 'urgent' : 'routine'
      const streamed = adapter.accountStreamed?.(task.owner) === true
      const due = spread(ages.get(venue) ?? POSITIONS_MAX_AGE_MS, task.owner)
      // read now what would be past due by the next sweep (the venue's
      // budget paces reads sent early); at most half the age early
      const age = Math.max(Math.round(due / 2), due - leadMs)
      const cred = credential(task.owner, venue)
      const asked = deps.clock.now()
      held = handled(
        cred.then((cred) =>
          adapter.positions(cred, {
            // a streamed account is read through: the stream answers
            maxAgeMs: streamed ? 0 : near ? NEAR_THRESHOLD_MAX_AGE_MS : age,
            // an account near a threshold waits for its read
            staleWhileReadMs: streamed || near ? 0 : age + STALE_WHILE_READ_MS,
            priority,
            // streamed marks against the last known liquidation prices
            // beat no evaluation while the budget holds the read back
            budgetFallbackMs: BUDGET_FALLBACK_MS,
          }),
        ),
      )
      positions.set(aKey, held)
      if (onAccountRead) {
        const owner = task.owner
        Promise.all([cred, held]).then(
          ([cred, p]) =>
            onAccountRead({
              owner,
              venue,
              cred,
              positions: p,
              readAt: positionsReadAt(p) ?? asked,
            }),
          () => undefined,
        )
      }
    }
    const [q, p] = await Promise.all([quote, held])
    return { quote: q, position: p.find((x) => x.market === market) }
  }

  return {
    /** Notes which accounts a page needs, and how urgently. */
    want(tasks: readonly TaskRecord[]) {
      for (const task of tasks) {
        for (const l of LEGS) {
          const key = `${task.owner}|${venueOf(task, l)}`
          const near = task.engineState?.nearThreshold === true
          const seen = accounts.get(key)
          if (!seen) accounts.set(key, { near })
          else if (near) seen.near = true
        }
      }
    },
    /** A leg's position in a read sent now (see ReadOptions.fresh). */
    async readNow(
      task: TaskRecord,
      l: Leg,
    ): Promise<VenuePosition | undefined> {
      const venue = venueOf(task, l)
      return readLegNow(
        deps.adapters[venue],
        await credential(task.owner, venue),
        marketOf(task, l),
      )
    },
    /** Starts the read of every market and account `tasks` need. */
    prefetch(tasks: readonly TaskRecord[]) {
      const started = new Set<string>()
      for (const task of tasks) {
        for (const l of LEGS) {
          // one read per account market: the name its lock goes by
          const key = accountMarketLock(
            task.owner,
            venueOf(task, l),
            marketOf(task, l),
          )
          if (started.has(key)) continue
          started.add(key)
          legReading(task, l).catch(() => undefined)
        }
      }
    },
    /**
     * Both legs of a task; the venue or credential error that kept one
     * unread; or null when something else did (logged), and the task
     * waits for its claim.
     */
    async legs(
      task: TaskRecord,
    ): Promise<Record<Leg, LegReading> | Error | null> {
      try {
        const [long, short] = await Promise.all(
          LEGS.map((l) => legReading(task, l)),
        )
        return { long: long as LegReading, short: short as LegReading }
      } catch (err) {
        if (
          err instanceof VenueUnavailableError ||
          err instanceof UncertainSubmissionError ||
          err instanceof CredentialUnavailableError
        ) {
          return err
        }
        deps.logger.error('monitor sweep skipped a task', {
          workerId: deps.workerId,
          taskId: task.id,
          error: errorMessage(err),
        })
        return null
      }
    },
  }
}

/**
 * How long the sweep reuses an account's credential (its binding read and
 * decrypted): a rebound account's reads use the old one at most this long,
 * while claimed steps, which send orders, always resolve afresh.
 */
const CREDENTIAL_KEEP_MS = 30_000

const credentialsByWorker = new WeakMap<
  WorkerDeps,
  SharedRead<string, VenueCredential>
>()

/**
 * The sweep's credentials of one worker, kept from sweep to sweep (a
 * failed resolve is not kept: the next sweep asks the store again).
 */
function sweepCredentials(
  deps: WorkerDeps,
): SharedRead<string, VenueCredential> {
  let kept = credentialsByWorker.get(deps)
  if (!kept) {
    kept = createSharedRead(deps.clock, (key: string) => {
      const [owner, venue] = key.split('|') as [string, VenueId]
      return workerCredential(deps, owner, venue, deps.clock.now())
    })
    credentialsByWorker.set(deps, kept)
  }
  return kept
}

/**
 * A read shared by several tasks: a failure is seen by each task that
 * awaits it, never reported as unhandled while one task's other leg failed
 * first.
 */
function handled<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined)
  return p
}
