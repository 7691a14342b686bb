import type {
  AccountSnapshotRecord,
  BoundAccount,
  BoundAccountSnapshot,
} from '../domain/accountSnapshot.js'
import type { ApiKeyRecord } from '../domain/apiKey.js'
import type {
  BindingBatchRecord,
  BindingBatchStatus,
} from '../domain/bindingBatch.js'
import type { IdempotencyRecord } from '../domain/idempotency.js'
import type { PerpOrderRecord, PerpOrderStatus } from '../domain/perpOrder.js'
import type { RequestFamily, RequestLogRecord } from '../domain/requestLog.js'
import type { TaskRecord, TaskStatus } from '../domain/task.js'
import type { TaskSampleRecord } from '../domain/taskSample.js'
import type { VenueId } from '../domain/venue.js'
import type { VenueBindingRecord } from '../domain/venueBinding.js'
import type { WorkerRecord } from '../domain/worker.js'

/** Position in a newest-first list: rows strictly after this one. */
export interface ListPosition {
  readonly updatedAt: string
  readonly id: string
}

export interface ListFilter {
  readonly owner: string
  /** only rows whose venue(s) are all in this set */
  readonly venues: readonly VenueId[]
  readonly status?: string | undefined
  /** ISO timestamp, up to 6 fractional digits; rows with updatedAt >= it */
  readonly updatedSince?: string | undefined
  readonly after?: ListPosition | undefined
  readonly limit: number
}

/** Fields a caller may change; `updatedAt` is always part of a patch. */
export type TaskPatch = Partial<
  Omit<TaskRecord, 'id' | 'owner' | 'apiKeyId' | 'createdAt'>
> & { readonly updatedAt: string }
export type PerpOrderPatch = Partial<
  Omit<PerpOrderRecord, 'id' | 'owner' | 'apiKeyId' | 'createdAt'>
> & { readonly updatedAt: string }
/** The prepare's identity (owner, nonce, request hash) never changes. */
export type BindingBatchPatch = Partial<
  Omit<
    BindingBatchRecord,
    'id' | 'owner' | 'nonce' | 'requestHash' | 'createdAt'
  >
> & { readonly updatedAt: string }

/** Guards on an update: the row changes only if all of them hold. */
export interface UpdateGuard<S extends string> {
  readonly status?: readonly S[] | undefined
  /** fencing token the writer holds */
  readonly fence?: number | undefined
}

/** A task's update guards: a status and fence, and its engine at rest. */
export interface TaskUpdateGuard extends UpdateGuard<TaskStatus> {
  /**
   * true: the row changes only while no operation is in flight (its
   * engine state holds no `op`), so a command cannot end a task whose
   * orders a worker has begun to send
   */
  readonly idle?: boolean | undefined
  /**
   * true: the row changes only while neither leg holds a booked size (an
   * opening that filled one leg is unwinding it, so a cancel would leave
   * that leg at its venue)
   */
  readonly unbooked?: boolean | undefined
}

/** What a worker asks for when it claims due work. */
export interface ClaimRequest<S extends string> {
  readonly workerId: string
  /** ISO now, from the worker's clock */
  readonly now: string
  /** lease length; the lease expires at now + leaseMs */
  readonly leaseMs: number
  /** only rows in these states */
  readonly statuses: readonly S[]
  /**
   * also rows in these states, but only once a check is scheduled
   * (`next_check_at` set) and due: final rows with work left, such as a
   * closed task whose funding is still to be read @default none
   */
  readonly scheduledStatuses?: readonly S[] | undefined
  readonly limit: number
  /**
   * A lease whose owner last heartbeated before this (ISO) is free, as is
   * one whose owner is fenced: a dead worker's work is taken over without
   * waiting out its leases @default only fenced owners' and expired leases
   */
  readonly ownerDeadBefore?: string | undefined
  /**
   * Told of each claimed row another worker still held (its lease
   * expired, or its owner is fenced or silent), with that worker's id:
   * a lease taken over, not one given back @default not told
   */
  readonly onTakenOver?: ((id: string, from: string) => void) | undefined
  /**
   * Rows not to claim, due or not: the ones this worker is still
   * advancing (a lease that ran out while it waited on a venue must not
   * start a second run of the row beside the first) @default none
   */
  readonly exclude?: readonly string[] | undefined
  /**
   * Orders only: skip pending orders whose account market
   * (`owner|venue|market`, as `accountMarketLock` names it) is among
   * these: an operation of this worker holds that lock, so their
   * submission could only find it busy @default none
   */
  readonly busyMarkets?: readonly string[] | undefined
  /**
   * Orders only: each claimed pending order also takes its account-market
   * lock (named and held as `lockOf` says) until the lease expires, in
   * the claim's transaction, so its submission costs no lock write of its
   * own. Told of each lock taken through `onLocked`; one held elsewhere
   * is not waited for (its order is claimed without it) @default none
   */
  readonly lockPending?:
    | {
        lockOf(order: OrderOnMarket): NamedLock
        onLocked(id: string): void
      }
    | undefined
}

/** An order as its account-market lock is named from it. */
export interface OrderOnMarket {
  readonly id: string
  readonly owner: string
  readonly venue: string
  readonly market: string
}

/** A lock's name and who holds (or asks for) it. */
export interface NamedLock {
  readonly name: string
  readonly holder: string
}

export interface ApiKeyRepo {
  insert(key: ApiKeyRecord): Promise<void>
  get(id: string): Promise<ApiKeyRecord | undefined>
  listByOwner(owner: string, env: string): Promise<ApiKeyRecord[]>
  /** @returns false when the key is unknown or already revoked */
  revoke(id: string, at: string): Promise<boolean>
}

export interface VenueBindingRepo {
  upsert(binding: VenueBindingRecord): Promise<void>
  get(owner: string, venue: VenueId): Promise<VenueBindingRecord | undefined>
  listByOwner(owner: string): Promise<VenueBindingRecord[]>
  /**
   * Marks the binding `unusable` with `code`, only while it is still bound
   * with `credentialCiphertext` (a rebind since then is left alone).
   * @returns true for the one caller that changed it
   */
  markUnusable(mark: BindingUnusableMark): Promise<boolean>
}

export interface BindingUnusableMark {
  readonly owner: string
  readonly venue: VenueId
  /** the ciphertext found unusable */
  readonly credentialCiphertext: string
  /** stable error code saying why (`credential_unreadable`) */
  readonly code: string
  readonly updatedAt: string
}

export interface TaskRepo {
  insert(task: TaskRecord): Promise<void>
  get(id: string): Promise<TaskRecord | undefined>
  /** @returns the updated row, or undefined when a guard failed */
  update(
    id: string,
    patch: TaskPatch,
    guard?: TaskUpdateGuard,
  ): Promise<TaskRecord | undefined>
  list(filter: ListFilter): Promise<TaskRecord[]>
  /**
   * Leases up to `limit` due rows: status in `statuses`, no live lease
   * (null or expired), `nextCheckAt` null or <= now, and the claiming worker
   * not fenced. Each claimed row gets leaseOwner = workerId, leaseExpiresAt =
   * now + leaseMs and fence + 1, in one statement per row set
   * (`FOR UPDATE SKIP LOCKED` on PostgreSQL), so two workers never hold the
   * same row. Oldest `nextCheckAt`/`updatedAt` first.
   */
  claim(request: ClaimRequest<TaskStatus>): Promise<TaskRecord[]>
  /**
   * Moves the lease's expiry to `until` (ISO) while the row is still at
   * `guard.fence`; nothing else changes (not `updatedAt`).
   * @returns false when another claim has taken the row since
   */
  renewLease(
    id: string,
    until: string,
    guard: { readonly fence: number },
  ): Promise<boolean>
  /** Tasks of `owner` in pending, running, resizing or closing. */
  countActiveByOwner(owner: string): Promise<number>
  /**
   * Running tasks the monitor sweep evaluates: no lease owner (due for a
   * claim or not: a task waiting for its claim is still watched); ids
   * after `afterId`, by id.
   */
  listWatched(request: WatchRequest): Promise<TaskRecord[]>
  /**
   * Writes what the monitor sweep observed, in one transaction. Each patch
   * lands only while its row is still running, unleased and at the fence
   * it was read with, and bumps the fence, so a worker acting on an older
   * read of the row is fenced out. @returns the ids written
   */
  recordObservations(entries: readonly TaskObservation[]): Promise<string[]>
  /**
   * Tasks of the account market's owner with a leg on its venue and
   * market, in pending, running, resizing or closing, or ended with a part
   * their close left at the venue (`engineState.leftAtVenue`): the task
   * holders of its position ledger.
   */
  listOnMarket(market: AccountMarket): Promise<TaskRecord[]>
}

/** One venue account's market: where the venue nets a position. */
export interface AccountMarket {
  readonly owner: string
  readonly venue: VenueId
  readonly market: string
}

/** A page of the tasks the monitor sweep watches. */
export interface WatchRequest {
  readonly afterId?: string | undefined
  readonly limit: number
}

/** One task's change seen by the monitor sweep, with the fence it read. */
export interface TaskObservation {
  readonly id: string
  readonly fence: number
  readonly patch: TaskPatch
}

/** A market where an owner's orders may rest at a venue. */
export interface RestingMarket {
  readonly owner: string
  readonly venue: VenueId
  readonly market: string
}

export interface PerpOrderRepo {
  insert(order: PerpOrderRecord): Promise<void>
  get(id: string): Promise<PerpOrderRecord | undefined>
  update(
    id: string,
    patch: PerpOrderPatch,
    guard?: UpdateGuard<PerpOrderStatus>,
  ): Promise<PerpOrderRecord | undefined>
  list(filter: ListFilter): Promise<PerpOrderRecord[]>
  /** Same semantics as TaskRepo.claim. */
  claim(request: ClaimRequest<PerpOrderStatus>): Promise<PerpOrderRecord[]>
  /** Same semantics as TaskRepo.renewLease. */
  renewLease(
    id: string,
    until: string,
    guard: { readonly fence: number },
  ): Promise<boolean>
  /**
   * Orders of `owner` in pending, submitting, open, partially_filled or
   * unknown; with `exceptVenue`, those on other venues only.
   */
  countActiveByOwner(owner: string, exceptVenue?: VenueId): Promise<number>
  /**
   * Every (owner, venue, market) where a limit order may rest at the
   * venue: time in force `gtc` or `post_only`, status `submitting`,
   * `open`, `partially_filled` or `unknown` (a send whose outcome is not
   * known may rest). Each triple once, in no particular order.
   */
  listRestingMarkets(): Promise<RestingMarket[]>
  /**
   * The owner's direct orders on the account market that filled anything
   * or may still: the direct-order holder of its position ledger.
   */
  listOnMarket(market: AccountMarket): Promise<PerpOrderRecord[]>
}

/** Venue-binding batches: one signed prepare and its per-venue progress. */
export interface BindingBatchRepo {
  /** Throws when the id or (owner, nonce) exists already. */
  insert(batch: BindingBatchRecord): Promise<void>
  get(id: string): Promise<BindingBatchRecord | undefined>
  getByNonce(
    owner: string,
    nonce: string,
  ): Promise<BindingBatchRecord | undefined>
  /** Same semantics as TaskRepo.update. */
  update(
    id: string,
    patch: BindingBatchPatch,
    guard?: UpdateGuard<BindingBatchStatus>,
  ): Promise<BindingBatchRecord | undefined>
  /** Batches of `owner` with createdAt >= `sinceIso` (six fractional digits). */
  countCreatedSince(owner: string, sinceIso: string): Promise<number>
  /** Same semantics as TaskRepo.claim. */
  claim(
    request: ClaimRequest<BindingBatchStatus>,
  ): Promise<BindingBatchRecord[]>
  /** Same semantics as TaskRepo.renewLease. */
  renewLease(
    id: string,
    until: string,
    guard: { readonly fence: number },
  ): Promise<boolean>
}

/**
 * Named mutual exclusion with expiry, for owner operations on one venue
 * account and market (`owner|venue|market`), across worker processes.
 */
export interface LockRepo {
  /** @returns true when `holder` now holds `name` until now + ttlMs */
  acquire(
    name: string,
    holder: string,
    now: string,
    ttlMs: number,
  ): Promise<boolean>
  /** Releases `name` if `holder` holds it. */
  release(name: string, holder: string): Promise<void>
  /**
   * Releases every lock whose holder starts with `prefix` (a dead
   * worker's, `<workerId>|`), so its successor does not wait out their
   * expiry. @returns how many were released
   */
  releaseHeldBy(prefix: string): Promise<number>
}

export type IdempotencyClaim =
  | { readonly inserted: true }
  | { readonly inserted: false; readonly existing: IdempotencyRecord }

export interface IdempotencyRepo {
  /**
   * Inserts the record unless (scope, key) exists. On PostgreSQL a
   * concurrent insert of the same key waits for the first transaction, then
   * sees its committed row, so duplicates replay instead of running twice.
   */
  claim(record: IdempotencyRecord): Promise<IdempotencyClaim>
  get(scope: string, key: string): Promise<IdempotencyRecord | undefined>
}

export interface RequestLogRepo {
  /**
   * Inserts `logs` (a batch) and keeps only the newest `keep` rows of each
   * (apiKeyId, family) they touch.
   */
  insert(logs: readonly RequestLogRecord[], keep: number): Promise<void>
  /** Newest first. */
  list(
    apiKeyId: string,
    family: RequestFamily,
    limit: number,
  ): Promise<RequestLogRecord[]>
}

export interface RateLimitHit {
  readonly allowed: boolean
  /** requests left in the window after this one */
  readonly remaining: number
  /** ms until the oldest counted request leaves the window */
  readonly resetMs: number
}

/**
 * A venue's request budget shared by every process of a deployment: an
 * exact weighted sliding log per bucket (a venue limit, per IP or per
 * account) of the weight each process reserved.
 */
export interface VenueBudgetRepo {
  /**
   * Reserves `weight` in `bucket` at `nowMs` only if the weight reserved
   * within (nowMs - windowMs, nowMs] stays at or under `ceiling`. Atomic.
   * @returns 0 when reserved, else ms until it could be (Infinity when
   *   `weight` exceeds `ceiling`)
   */
  reserve(
    bucket: string,
    nowMs: number,
    windowMs: number,
    ceiling: number,
    weight: number,
  ): Promise<number>
  /**
   * Gives back `weight` of a reservation made at `reservedAtMs` (the
   * `nowMs` it was asked with) that will never be spent: counted from
   * then, so it leaves the window no later than the reservation and the
   * log never counts less than was spent. Nothing when that time has
   * left the window already.
   */
  release(
    bucket: string,
    reservedAtMs: number,
    windowMs: number,
    weight: number,
  ): Promise<void>
}

export interface RateLimitRepo {
  /**
   * Sliding log: counts hits of `bucket` within (nowMs - windowMs, nowMs];
   * records this one only if fewer than `limit` were counted. Atomic.
   */
  hit(
    bucket: string,
    nowMs: number,
    windowMs: number,
    limit: number,
  ): Promise<RateLimitHit>
}

export interface WalletNonceRepo {
  /** Records a signed nonce as used. @returns false if it was used before. */
  use(
    owner: string,
    nonce: string,
    action: string,
    at: string,
  ): Promise<boolean>
}

export interface WorkerRepo {
  /** Upserts the heartbeat; keeps a stored fencedAt. */
  heartbeat(worker: WorkerRecord): Promise<void>
  get(id: string): Promise<WorkerRecord | undefined>
  list(): Promise<WorkerRecord[]>
  /**
   * Fences one worker (one known dead): its leases are free at once.
   * @returns false when it is unknown or already fenced
   */
  fence(id: string, at: string): Promise<boolean>
  fenceAll(at: string): Promise<number>
}

/**
 * Strictly increasing numbers per name, shared by every process on the
 * database: venue nonces that never repeat across restarts or workers.
 */
export interface CounterRepo {
  /** Stores and returns max(previous + 1, floor). Atomic. */
  next(name: string, floor: number): Promise<number>
}

/** Facts of a deployment that never change once set. */
export interface SettingRepo {
  /** Stores `value` under `name` unless one is stored; returns the stored one. */
  claim(name: string, value: string): Promise<string>
}

/**
 * The latest snapshot of each bound venue account (see
 * AccountSnapshotRecord), keyed by owner, venue and account index.
 */
export interface AccountSnapshotRepo {
  /**
   * Stores each snapshot in place of the account's last one, unless the
   * stored one was read later (two workers racing never move it back); one
   * without a balance keeps the stored balance and its read time.
   */
  put(snapshots: readonly AccountSnapshotRecord[]): Promise<void>
  /**
   * Bound accounts of every owner with their snapshots' read times, by
   * (owner, venue), strictly after `after`: what a refresh schedules from.
   */
  listBound(page: {
    readonly after?: { readonly owner: string; readonly venue: VenueId }
    readonly limit: number
  }): Promise<BoundAccount[]>
  /**
   * The owner's bound accounts on `venues`, by venue, each with the
   * snapshot of the account it is bound to now (null: none yet).
   */
  listByOwner(
    owner: string,
    venues: readonly VenueId[],
  ): Promise<BoundAccountSnapshot[]>
}

/** Running tasks' history: samples the monitor sweep took. */
export interface TaskSampleRepo {
  /**
   * Stores each sample unless its task has one in the same `everyMs`-long
   * slot (slots start at multiples of `everyMs` since the Unix epoch), so a
   * task is sampled at most once a slot, however many workers race.
   * @returns how many were stored
   */
  add(samples: readonly TaskSampleRecord[], everyMs: number): Promise<number>
  /**
   * The newest `limit` samples of the task taken at or after `since`
   * (ISO), oldest first.
   */
  list(
    taskId: string,
    page: { readonly since?: string | undefined; readonly limit: number },
  ): Promise<TaskSampleRecord[]>
}

/** Every repository, bound to one connection or transaction. */
/** The tables workers lease, by what they hold. */
export type WorkKind = 'task' | 'order' | 'binding'

/** How much leased work waits, for metrics. */
export interface WorkQueueDepth {
  /** rows in `statuses`, due (next check passed) and not leased now */
  readonly due: number
  /** the oldest due row's due time (ISO), null when none is due */
  readonly oldestDueAt: string | null
}

/** Counts over the leased tables (metrics read them at scrape time). */
export interface WorkQueueRepo {
  depth(
    kind: WorkKind,
    statuses: readonly string[],
    now: string,
  ): Promise<WorkQueueDepth>
  /** rows of `kind` in `status` */
  countByStatus(kind: WorkKind, status: string): Promise<number>
}

export interface Repos {
  readonly apiKeys: ApiKeyRepo
  readonly bindings: VenueBindingRepo
  readonly tasks: TaskRepo
  readonly orders: PerpOrderRepo
  readonly bindingBatches: BindingBatchRepo
  readonly idempotency: IdempotencyRepo
  readonly requestLogs: RequestLogRepo
  readonly rateLimits: RateLimitRepo
  readonly venueBudgets: VenueBudgetRepo
  readonly walletNonces: WalletNonceRepo
  readonly workers: WorkerRepo
  readonly locks: LockRepo
  readonly counters: CounterRepo
  readonly settings: SettingRepo
  readonly accountSnapshots: AccountSnapshotRepo
  readonly taskSamples: TaskSampleRepo
}

/** The storage port. Core never knows which database is behind it. */
export interface Store extends Repos {
  readonly dialect: 'sqlite' | 'postgres'
  /** queue depth and status counts, outside any transaction */
  readonly workQueue: WorkQueueRepo
  /** Runs `fn` in one serializable-enough transaction; rolls back on throw. */
  transaction<T>(fn: (tx: Repos) => Promise<T>): Promise<T>
  /**
   * As `transaction`, but calls made at about the same time share one
   * commit (group commit: one fsync for many commands on SQLite), each in
   * its own savepoint, so one call's failure rolls back only its own
   * writes. Resolves only once its writes are committed. For short
   * commands answered after they are durable (API commands); inside an
   * open transaction it is a savepoint of it, as `transaction` is.
   */
  sharedTransaction<T>(fn: (tx: Repos) => Promise<T>): Promise<T>
  close(): Promise<void>
  /**
   * Wakes listeners on `channel` in every process sharing the database
   * (PostgreSQL NOTIFY; within the process only on SQLite). Call after the
   * transaction that made work due has committed.
   */
  notify(channel: string): Promise<void>
  /** Subscribes to `channel`; the returned function unsubscribes. */
  listen(channel: string, onWake: () => void): Promise<() => Promise<void>>
  /**
   * Where API key revocations stand: a value that changes once any
   * process commits a revocation, or `undefined` while the store cannot
   * vouch for that (then nothing cached may be trusted). A key read after
   * a mark was taken is current as long as the mark is unchanged. SQLite
   * reads a revocation counter that commits with each revocation;
   * PostgreSQL listens for a notification each revocation sends.
   */
  revocationMark(): Promise<string | undefined>
  /**
   * Where venue bindings stand, as {@link Store.revocationMark} for keys:
   * it changes once any process commits a binding's insert or update.
   */
  bindingMark(): Promise<string | undefined>
}
