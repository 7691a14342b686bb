/**
 * PostgreSQL store entry (`@dn/core/postgres`): a pg Pool behind kysely.
 * Loads pg only; never better-sqlite3.
 * @module
 */
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import type { Store } from '../ports/store.js'
import { notifyChangeWatches } from './changeWatch.js'
import type { Database } from './database.js'
import { postgres } from './dialects/postgres.js'
import { postgresNotifier } from './dialects/postgresNotifier.js'
import { createKyselyStore } from './kyselyStore.js'
import { migrateToLatest } from './migrateToLatest.js'
import { StoreError } from './storeError.js'

export interface PostgresStoreOptions {
  readonly connectionString: string
  /** pool size; @default 10 */
  readonly max?: number | undefined
  /**
   * Schema holding every table (lowercase identifier), created when absent.
   * @default the connection's default search_path
   */
  readonly schema?: string | undefined
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/

/**
 * Connects and migrates a PostgreSQL store. Migrations run under an
 * advisory lock, so several servers and workers may start at once.
 * `notify`/`listen` use PostgreSQL NOTIFY/LISTEN, so they reach every
 * process on the database; listening holds one extra connection, outside
 * the pool, from the first `listen` until `close`.
 * @throws {StoreError} on a bad schema name or a failed migration
 * @example
 * const store = await createPostgresStore({ connectionString: process.env.DN_DB })
 */
export async function createPostgresStore(
  options: PostgresStoreOptions,
): Promise<Store> {
  const { connectionString, max, schema } = options
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) {
    throw new StoreError(`invalid schema name: ${schema}`)
  }
  const pool = new pg.Pool({
    connectionString,
    ...(max === undefined ? {} : { max }),
    ...(schema === undefined ? {} : { options: `-c search_path=${schema}` }),
  })
  // An idle client that dies is dropped by the pool; the next query reports
  // the outage. Without a listener the 'error' event would crash the process.
  pool.on('error', () => undefined)
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
  const dialect = postgres({ schema })
  try {
    await migrateToLatest(db, dialect)
  } catch (err) {
    await db.destroy()
    throw err
  }
  const notifier = postgresNotifier(connectionString)
  return createKyselyStore(
    db,
    dialect,
    notifier,
    notifyChangeWatches(notifier, schema),
  )
}
