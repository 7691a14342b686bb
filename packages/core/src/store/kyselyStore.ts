import { AsyncLocalStorage } from 'node:async_hooks'
import { type Kysely, sql } from 'kysely'
import type { Repos, Store } from '../ports/store.js'
import { accountSnapshotRepo } from './accountSnapshotRepo.js'
import { apiKeyRepo } from './apiKeyRepo.js'
import { bindingBatchRepo } from './bindingBatchRepo.js'
import type { ChangeKind, ChangeWatches } from './changeWatch.js'
import { createCommitGroup } from './commitGroup.js'
import { counterRepo } from './counterRepo.js'
import type { Database } from './database.js'
import type { DialectSpec } from './dialectSpec.js'
import { idempotencyRepo } from './idempotencyRepo.js'
import { lockRepo } from './lockRepo.js'
import { checkChannel, type Notifier } from './notifier.js'
import { perpOrderRepo } from './perpOrderRepo.js'
import { rateLimitRepo } from './rateLimitRepo.js'
import type { RepoScope } from './repoScope.js'
import { requestLogRepo } from './requestLogRepo.js'
import { settingRepo } from './settingRepo.js'
import { StoreError } from './storeError.js'
import { taskRepo } from './taskRepo.js'
import { taskSampleRepo } from './taskSampleRepo.js'
import { venueBindingRepo } from './venueBindingRepo.js'
import { venueBudgetRepo } from './venueBudgetRepo.js'
import { walletNonceRepo } from './walletNonceRepo.js'
import { workerRepo } from './workerRepo.js'
import { workQueueRepo } from './workQueueRepo.js'

/** An open transaction: one connection, live until commit or rollback. */
interface TxContext {
  readonly db: Kysely<Database>
  active: boolean
  savepoints: number
  /** run once the outermost transaction has committed */
  readonly afterCommit: (() => void)[]
  /** channels notified inside it, sent once each as it commits */
  readonly notified: string[]
  /**
   * Parameter-free statements (a shared commit's savepoint releases) held
   * back to go with the next one in one round trip (`batchedStatements`)
   */
  readonly deferred: string[]
  /**
   * a deferred statement failed: the database has aborted the
   * transaction, so it must not report a commit
   */
  broken: boolean
}

/**
 * Builds the {@link Store} over a migrated `Kysely<Database>`.
 *
 * Transaction rule: inside `transaction(fn)`, use the `tx` repos. Calls on
 * the store itself made from within `fn` (same async context) join the open
 * transaction instead of taking another connection, so they see its writes,
 * roll back with it, and cannot deadlock on SQLite's single connection or on
 * an exhausted PostgreSQL pool; a nested `store.transaction` becomes a
 * savepoint. Calls from other async contexts wait for the connection on
 * SQLite, and run beside it on PostgreSQL. The `tx` repos throw
 * {@link StoreError} once the transaction has finished.
 *
 * `notify` inside a transaction is delivered only once it commits (never
 * after a rollback, nor for a rolled-back savepoint): by the database when
 * the notifier is transactional (PostgreSQL), else by the store. Listeners
 * run outside every transaction's async context.
 * @internal
 */
export function createKyselyStore(
  db: Kysely<Database>,
  dialect: DialectSpec,
  notifier: Notifier,
  watches: ChangeWatches,
): Store {
  const open = new AsyncLocalStorage<TxContext>()
  const current = (): TxContext | undefined => {
    const ctx = open.getStore()
    return ctx?.active ? ctx : undefined
  }

  /** Runs the statements held back, then `statement`: one round trip. */
  const control = async (ctx: TxContext, statement: string) => {
    const batch = [...ctx.deferred, statement].join('; ')
    ctx.deferred.length = 0
    try {
      await sql.raw(batch).execute(ctx.db)
    } catch (err) {
      ctx.broken = true
      throw err
    }
  }

  /**
   * Holds `statements` back for the next control statement where the
   * driver batches (they are sent before any other statement can run:
   * only a shared commit's next savepoint or its commit follows them),
   * else runs them now.
   */
  const defer = async (ctx: TxContext, ...statements: string[]) => {
    if (dialect.batchedStatements) ctx.deferred.push(...statements)
    else for (const s of statements) await control(ctx, s)
  }

  /**
   * @param grouped a shared commit's group of several, whose first
   * statement is a savepoint: `begin` goes with it
   */
  const begin = async <T>(
    fn: (ctx: TxContext) => Promise<T>,
    grouped = false,
  ): Promise<T> => {
    const afterCommit: (() => void)[] = []
    const result = await db.connection().execute(async (conn) => {
      const ctx: TxContext = {
        db: conn,
        active: true,
        savepoints: 0,
        afterCommit,
        notified: [],
        deferred: [],
        broken: false,
      }
      await (grouped ? defer : control)(ctx, dialect.begin)
      try {
        const value = await open.run(ctx, () => fn(ctx))
        if (ctx.broken) {
          throw new StoreError('a transaction statement failed: rolled back')
        }
        // one notification per channel, however many commands of a shared
        // commit asked: the database delivers it with the commit (in the
        // commit's round trip when it can), or the store once it is done
        for (const channel of new Set(ctx.notified)) {
          if (notifier.statement) await defer(ctx, notifier.statement(channel))
          else if (notifier.transactional) {
            await notifier.notify(conn, channel)
          } else {
            afterCommit.push(() => {
              notifier.notify(db, channel).catch(() => undefined)
            })
          }
        }
        await control(ctx, 'commit')
        return value
      } catch (err) {
        afterCommit.length = 0
        await sql`rollback`.execute(conn).catch(() => undefined)
        throw err
      } finally {
        ctx.active = false
      }
    })
    for (const hook of afterCommit) hook()
    return result
  }

  /**
   * @param member a shared commit's member: its release (or rollback) is
   * held back for the next member's savepoint or the commit. A nested
   * savepoint releases at once: its caller's statements follow it.
   */
  const savepoint = async <T>(
    ctx: TxContext,
    fn: () => Promise<T>,
    member = false,
  ): Promise<T> => {
    ctx.savepoints += 1
    // a generated name: no quoting needed
    const name = `dn_sp_${ctx.savepoints}`
    const hooks = ctx.afterCommit.length
    const notified = ctx.notified.length
    await control(ctx, `savepoint ${name}`)
    const release = `release savepoint ${name}`
    try {
      const result = await fn()
      if (member) await defer(ctx, release)
      else await control(ctx, release)
      return result
    } catch (err) {
      ctx.afterCommit.length = hooks
      ctx.notified.length = notified
      const rollback = `rollback to savepoint ${name}`
      if (member) await defer(ctx, rollback, release)
      else {
        await control(ctx, rollback)
        await control(ctx, release)
      }
      throw err
    }
  }

  const shared = createCommitGroup({
    transaction: (fn, size) => begin(() => fn(), size > 1),
    savepoint: (fn) => {
      const ctx = current()
      if (!ctx) throw new StoreError('a shared commit outside its transaction')
      return savepoint(ctx, fn, true)
    },
  })

  const changed = (ctx: TxContext | undefined, kind: ChangeKind) => {
    if (!ctx)
      throw new StoreError(`a change of ${kind} outside its transaction`)
    return watches[kind].changed(ctx.db, (hook) => ctx.afterCommit.push(hook))
  }

  const txScope = (ctx: TxContext): RepoScope => {
    const txDb = () => {
      if (!ctx.active) throw new StoreError('transaction already finished')
      return ctx.db
    }
    return {
      dialect,
      db: txDb,
      atomic: (fn) => fn(txDb()),
      changed: (kind) => changed(ctx, kind),
    }
  }

  const rootScope: RepoScope = {
    dialect,
    db: () => current()?.db ?? db,
    atomic: (fn) => {
      const ctx = current()
      return ctx ? fn(ctx.db) : begin((c) => fn(c.db))
    },
    changed: (kind) => changed(current(), kind),
  }

  return {
    dialect: dialect.name,
    ...repos(rootScope),
    workQueue: workQueueRepo(rootScope),
    transaction(fn) {
      const ctx = current()
      if (ctx) return savepoint(ctx, () => fn(repos(txScope(ctx))))
      return begin((c) => fn(repos(txScope(c))))
    },
    sharedTransaction(fn) {
      const ctx = current()
      if (ctx) return savepoint(ctx, () => fn(repos(txScope(ctx))))
      return shared(() => {
        const c = current()
        if (!c) throw new StoreError('a shared commit outside its transaction')
        return fn(repos(txScope(c)))
      })
    },
    async notify(channel) {
      checkChannel(channel)
      const ctx = current()
      if (ctx === undefined) await notifier.notify(db, channel)
      else ctx.notified.push(channel)
    },
    async listen(channel, onWake) {
      checkChannel(channel)
      return notifier.listen(channel, () => open.exit(onWake))
    },
    revocationMark: () => watches.revocations.mark(),
    bindingMark: () => watches.bindings.mark(),
    async close() {
      try {
        await watches.revocations.close()
        await watches.bindings.close()
        await notifier.close()
      } finally {
        await db.destroy()
      }
    },
  }
}

function repos(scope: RepoScope): Repos {
  return {
    apiKeys: apiKeyRepo(scope),
    bindings: venueBindingRepo(scope),
    tasks: taskRepo(scope),
    orders: perpOrderRepo(scope),
    bindingBatches: bindingBatchRepo(scope),
    idempotency: idempotencyRepo(scope),
    requestLogs: requestLogRepo(scope),
    rateLimits: rateLimitRepo(scope),
    venueBudgets: venueBudgetRepo(scope),
    walletNonces: walletNonceRepo(scope),
    workers: workerRepo(scope),
    locks: lockRepo(scope),
    counters: counterRepo(scope),
    settings: settingRepo(scope),
    accountSnapshots: accountSnapshotRepo(scope),
    taskSamples: taskSampleRepo(scope),
  }
}
