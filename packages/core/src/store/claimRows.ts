import { type Kysely, type Selectable, sql } from 'kysely'
import type { ClaimRequest } from '../ports/store.js'
import { isoToMicros } from '../util/time.js'
import type { Database } from './database.js'
import { takeLocks } from './lockRepo.js'
import type { RepoScope } from './repoScope.js'
import { storedMicros } from './rowMappers.js'

/** An order's account market, named as `accountMarketLock` names it. */
const ACCOUNT_MARKET = sql<string>`owner || '|' || venue || '|' || market`

/** The orders whose step takes the account-market lock: submissions. */
const LOCKING_STATUS = 'pending'

/** Order candidates read per slot (see the one-per-market rule below). */
const ORDER_CANDIDATES = 4

/** Tables whose rows workers lease. */
export type ClaimedTable = 'tasks' | 'perp_orders' | 'binding_batches'

/**
 * Leases due rows of `table` (see `TaskRepo.claim`): one
 * `UPDATE ... WHERE id IN (SELECT id ... ORDER BY ... LIMIT n) RETURNING *`.
 * On PostgreSQL the subquery locks its rows `FOR UPDATE SKIP LOCKED`, so
 * concurrent claimers take disjoint rows and re-check a row another one just
 * committed; on SQLite the statement runs in the store's `BEGIN IMMEDIATE`
 * transaction (or joins the open one), which excludes other writers. With
 * `onTakenOver` the due rows (and who held them) are read first, then
 * leased by id, in one transaction on both dialects.
 *
 * Due: status in `statuses` and `next_check_at` null or at or before
 * `now`, or status in `scheduledStatuses` and `next_check_at` at or before
 * `now`; no lease owner, no lease expiry or one at or before `now`, or a
 * lease owner that is fenced or last heartbeated before `ownerDeadBefore`;
 * no fenced `workers` row for `workerId` (a worker that never heartbeated
 * may claim); and not in `exclude`. Pending orders besides (a submission
 * takes its account market's lock): not on a market of `busyMarkets` nor
 * on one whose lock is held, and at most one per account market in one
 * claim.
 * Oldest `coalesce(next_check_at, updated_at)` first, then by id.
 */
export function claimRows<T extends ClaimedTable>(
  scope: RepoScope,
  table: T,
  request: ClaimRequest<string>,
): Promise<Selectable<Database[T]>[]> {
  const { workerId, statuses, limit } = request
  const scheduled = request.scheduledStatuses ?? []
  if (statuses.length + scheduled.length === 0 || limit <= 0) {
    return Promise.resolve([])
  }
  const now = Number(isoToMicros(request.now))
  const deadBefore =
    request.ownerDeadBefore === undefined
      ? undefined
      : Number(isoToMicros(request.ownerDeadBefore))
  // whole milliseconds, like every stored timestamp
  const leaseExpiresAt =
    storedMicros(request.now) + Math.ceil(request.leaseMs) * 1000

  // reading who held the rows, or the orders' account markets (and taking
  // their locks), takes several statements: one transaction (on
  // PostgreSQL the rows stay locked from the read to the write)
  const twoSteps = request.onTakenOver !== undefined || table === 'perp_orders'
  // The tables share the claim columns; kysely checks them on one of them.
  const run = async (anyDb: Kysely<Database>) => {
    const db = anyDb as unknown as Kysely<Pick<Database, 'tasks' | 'workers'>>
    const name = table as 'tasks'
    let dueIds = db
      .selectFrom(name)
      .select('id')
      .where((eb) => {
        // a scheduled status is due only at its check: a row of it
        // without one (any final row) is never claimed
        const due = eb('next_check_at', '<=', now)
        return eb.or([
          ...(statuses.length === 0
            ? []
            : [
                eb.and([
                  eb('status', 'in', statuses),
                  eb.or([eb('next_check_at', 'is', null), due]),
                ]),
              ]),
          ...(scheduled.length === 0
            ? []
            : [eb.and([eb('status', 'in', scheduled), due])]),
        ])
      })
      .where((eb) =>
        eb.or([
          eb('lease_owner', 'is', null),
          eb('lease_expires_at', 'is', null),
          eb('lease_expires_at', '<=', now),
          // its owner is fenced, or has not heartbeated for too long
          eb.exists(
            eb
              .selectFrom('workers as owner')
              .select(sql.lit(1).as('dead'))
              .whereRef('owner.id', '=', `${name}.lease_owner`)
              .where((w) =>
                w.or([
                  w('owner.fenced_at', 'is not', null),
                  ...(deadBefore === undefined
                    ? []
                    : [w('owner.heartbeat_at', '<', deadBefore)]),
                ]),
              ),
          ),
        ]),
      )
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('workers')
              .select(sql.lit(1).as('fenced'))
              .where('workers.id', '=', workerId)
              .where('workers.fenced_at', 'is not', null),
          ),
        ),
      )
      .$if((request.exclude?.length ?? 0) > 0, (qb) =>
        qb.where('id', 'not in', request.exclude as readonly string[]),
      )
      // a pending order (its step takes its account market's lock) whose
      // account market this worker's own runs (`busyMarkets`) or another
      // operation (any worker's order or task leg) holds could only find
      // the lock taken. Orders at the venue are looked at without the
      // lock, and are claimed whatever holds it. Not skipped for a leased
      // sibling: one whose step failed keeps its lease as the retry's
      // backoff (its lock released), and one that fails each time must
      // not hold its market's queue
      .$if(table === 'perp_orders', (qb) =>
        qb.where(
          sql<boolean>`(status <> ${LOCKING_STATUS} or (${
            (request.busyMarkets?.length ?? 0) > 0
              ? sql`${ACCOUNT_MARKET} not in (${sql.join(request.busyMarkets as readonly string[])}) and `
              : sql``
          }not exists (select 1 from locks where locks.name = ${ACCOUNT_MARKET} and locks.expires_at > ${now})))`,
        ),
      )
      .orderBy((eb) => eb.fn.coalesce('next_check_at', 'updated_at'))
      .orderBy('id')
    if (table === 'perp_orders') {
      // one pending order per account market: they run one after another
      // under its lock, so a second one leased now would only wait on the
      // first, its lease and slot held for nothing.
      // The first of each is picked from a plain read (locking every
      // candidate would hide the ones not chosen from other claimers),
      // then locked and checked again below.
      const candidates = await dueIds
        .select(['status', ACCOUNT_MARKET.as('account_market')])
        .limit(limit * ORDER_CANDIDATES)
        .execute()
      const markets = new Set<string>()
      const firsts: string[] = []
      for (const c of candidates) {
        if (c.status === LOCKING_STATUS) {
          if (markets.has(c.account_market)) continue
          markets.add(c.account_market)
        }
        firsts.push(c.id)
      }
      if (firsts.length === 0) return []
      dueIds = dueIds.where('id', 'in', firsts)
    }
    dueIds = dueIds.limit(limit)
    if (scope.dialect.rowLocks) dueIds = dueIds.forUpdate().skipLocked()
    // who held each row before: read in the same statement on PostgreSQL
    // (the locked rows), in the same transaction on SQLite (one writer)
    const held = new Map<string, string | null>()
    let ids: readonly string[] | typeof dueIds = dueIds
    if (request.onTakenOver) {
      const picked = await dueIds.select('lease_owner').execute()
      for (const p of picked) held.set(p.id, p.lease_owner)
      ids = picked.map((p) => p.id)
      if (ids.length === 0) return []
    }
    const rows = await db
      .updateTable(name)
      .set((eb) => ({
        lease_owner: workerId,
        lease_expires_at: leaseExpiresAt,
        fence: eb('fence', '+', 1),
      }))
      .where('id', 'in', ids as typeof dueIds)
      .returningAll()
      .execute()
    for (const row of rows) {
      const from = held.get(row.id)
      if (from && from !== workerId) request.onTakenOver?.(row.id, from)
    }
    if (table === 'perp_orders' && request.lockPending) {
      await lockPendingOrders(
        anyDb,
        rows as unknown as Selectable<Database['perp_orders']>[],
        request.lockPending,
        request,
      )
    }
    // RETURNING keeps no order; hand the rows back oldest due first
    const dueAt = (row: (typeof rows)[number]) =>
      BigInt(row.next_check_at ?? row.updated_at)
    rows.sort((a, b) => {
      const diff = dueAt(a) - dueAt(b)
      return diff === 0n ? (a.id < b.id ? -1 : 1) : diff < 0n ? -1 : 1
    })
    return rows as unknown as Selectable<Database[T]>[]
  }

  return scope.dialect.rowLocks && !twoSteps
    ? run(scope.db())
    : scope.atomic(run)
}

/**
 * Takes the account-market lock of each claimed pending order (see
 * `ClaimRequest.lockPending`), in the claim's transaction.
 */
async function lockPendingOrders(
  db: Kysely<Database>,
  rows: readonly Selectable<Database['perp_orders']>[],
  pending: NonNullable<ClaimRequest<string>['lockPending']>,
  request: Pick<ClaimRequest<string>, 'now' | 'leaseMs'>,
): Promise<void> {
  const wanted = new Map<
    string,
    { readonly id: string; readonly holder: string }
  >()
  for (const row of rows) {
    if (row.status !== LOCKING_STATUS) continue
    const lock = pending.lockOf(row)
    // one per account market is claimed; a second would wait on the first
    if (!wanted.has(lock.name)) {
      wanted.set(lock.name, { id: row.id, holder: lock.holder })
    }
  }
  const taken = await takeLocks(
    db,
    [...wanted].map(([name, w]) => ({ name, holder: w.holder })),
    request.now,
    request.leaseMs,
  )
  for (const name of taken) {
    const w = wanted.get(name)
    if (w) pending.onLocked(w.id)
  }
}
