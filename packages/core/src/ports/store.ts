import type { ApiKeyRecord } from '../domain/apiKey.js'
import type { IdempotencyRecord } from '../domain/idempotency.js'
import type { PerpOrderRecord, PerpOrderStatus } from '../domain/perpOrder.js'
import type { RequestFamily, RequestLogRecord } from '../domain/requestLog.js'
import type { TaskRecord, TaskStatus } from '../domain/task.js'
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

/** Guards on an update: the row changes only if all of them hold. */
export interface UpdateGuard<S extends string> {
  readonly status?: readonly S[] | undefined
  /** fencing token the writer holds */
  readonly fence?: number | undefined
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
}

export interface TaskRepo {
  insert(task: TaskRecord): Promise<void>
  get(id: string): Promise<TaskRecord | undefined>
  /** @returns the updated row, or undefined when a guard failed */
  update(
    id: string,
    patch: TaskPatch,
    guard?: UpdateGuard<TaskStatus>,
  ): Promise<TaskRecord | undefined>
  list(filter: ListFilter): Promise<TaskRecord[]>
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
  /** Inserts and keeps only the newest `keep` rows for (apiKeyId, family). */
  insert(log: RequestLogRecord, keep: number): Promise<void>
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
  heartbeat(worker: WorkerRecord): Promise<void>
  list(): Promise<WorkerRecord[]>
  fenceAll(at: string): Promise<number>
}

/** Every repository, bound to one connection or transaction. */
export interface Repos {
  readonly apiKeys: ApiKeyRepo
  readonly bindings: VenueBindingRepo
  readonly tasks: TaskRepo
  readonly orders: PerpOrderRepo
  readonly idempotency: IdempotencyRepo
  readonly requestLogs: RequestLogRepo
  readonly rateLimits: RateLimitRepo
  readonly walletNonces: WalletNonceRepo
  readonly workers: WorkerRepo
}

/** The storage port. Core never knows which database is behind it. */
export interface Store extends Repos {
  readonly dialect: 'sqlite' | 'postgres'
  /** Runs `fn` in one serializable-enough transaction; rolls back on throw. */
  transaction<T>(fn: (tx: Repos) => Promise<T>): Promise<T>
  close(): Promise<void>
}
