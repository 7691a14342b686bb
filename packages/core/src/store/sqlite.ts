/**
 * SQLite store entry (`@dn/core/sqlite`): better-sqlite3 behind kysely.
 * Loads better-sqlite3 only; never pg.
 * @module
 */
import { Kysely, SqliteDialect } from 'kysely'
import type { Store } from '../ports/store.js'
import { counterChangeWatches } from './changeWatch.js'
import type { Database } from './database.js'
import { sqlite } from './dialects/sqlite.js'
import { createKyselyStore } from './kyselyStore.js'
import { migrateToLatest } from './migrateToLatest.js'
import { localNotifier } from './notifier.js'
import { openSqliteDatabase } from './openSqliteDatabase.js'
import { sqliteStatementCache } from './sqliteStatementCache.js'

export interface SqliteStoreOptions {
  /** database file path, or `':memory:'` */
  readonly filename: string
}

/**
 * Opens (creating if needed) and migrates a SQLite store. One connection per
 * process; transactions are `BEGIN IMMEDIATE`, so writers in other processes
 * queue for up to 5 s instead of failing. `notify` wakes only this store's
 * own listeners: other processes (or other stores on the same file) are not
 * woken and find due work on their next poll.
 * @throws {StoreError} when a migration fails
 * @example
 * const store = await createSqliteStore({ filename: '.dn/dn.db' })
 */
export async function createSqliteStore(
  options: SqliteStoreOptions,
): Promise<Store> {
  const database = openSqliteDatabase(options.filename)
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: sqliteStatementCache(database) }),
  })
  const dialect = sqlite()
  try {
    await migrateToLatest(db, dialect)
  } catch (err) {
    await db.destroy()
    throw err
  }
  return createKyselyStore(
    db,
    dialect,
    localNotifier(),
    counterChangeWatches(db),
  )
}
