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

  const begin = async <T>(fn: (ctx: TxContext) => Promise<T>): Promise<T> => {
    const afterCommit: (() => void)[] = []
    const result = await db.connection().execute(async (conn) => {
      await sql.raw(dialect.begin).execute(conn)
      const ctx: TxContext = {
        db: conn,
        active: true,
        savepoints: 0,
        afterCommit,
        notified: [],
      }
      try {
        const value = await open.run(ctx, () => fn(ctx))
        // one notification per channel, however many commands of a shared
        // commit asked: the database delivers it with the commit, or the
        // store once it is done
        for (const channel of new Set(ctx.notified)) {
          if (notifier.transactional) await notifier.notify(conn, channel)
          else {
            afterCommit.push(() => {
              notifier.notify(db, channel).catch(() => undefined)
            })
          }
        }
        await sql`commit`.execute(conn)
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

  const savepoint = async <T>(
    ctx: TxContext,
    fn: () => Promise<T>,
  ): Promise<T> => {
    ctx.savepoints += 1
    const name = sql.id(`dn_sp_${ctx.savepoints}`)
    const hooks = ctx.afterCommit.length
    const notified = ctx.notified.length
    await sql`savepoint ${name}`.execute(ctx.db)
    try {
      const result = await fn()
      await sql`release savepoint ${name}`.execute(ctx.db)
      return result
    } catch (err) {
      ctx.afterCommit.length = hooks
      ctx.notified.length = notified
      await sql`rollback to savepoint ${name}`.execute(ctx.db)
      await sql`release savepoint ${name}`.execute(ctx.db)
      throw err
    }
  }

  const shared = createCommitGroup({
    transaction: (fn) => begin(() => fn()),
    savepoint: (fn) => {
      const ctx = current()
      if (!ctx) throw new StoreError('a shared commit outside its transaction')
      return savepoint(ctx, fn)
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
