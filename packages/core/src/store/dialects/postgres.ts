import { sql } from 'kysely'
import type { DialectSpec } from '../dialectSpec.js'

/** Session advisory lock key serializing our migrations ('dn_store'). */
const MIGRATION_LOCK_KEY = 7236850744483836517n

interface PostgresDialectOptions {
  /** schema that holds every table; created by the migration when absent */
  readonly schema?: string | undefined
}

/**
 * PostgreSQL: READ COMMITTED transactions (stated explicitly, so a server
 * default of SERIALIZABLE cannot turn idempotency races into errors), and
 * migrations under a session advisory lock so concurrent starts queue.
 */
export function postgres(options: PostgresDialectOptions = {}): DialectSpec {
  const { schema } = options
  return {
    name: 'postgres',
    begin: 'begin isolation level read committed',
    types: { micros: 'bigint', decimal: 'numeric', bool: 'boolean' },
    migrationTableSchema: schema,
    rowLocks: true,
    batchedStatements: true,
    bool: (value) => value,
    // `->` gives SQL NULL for a missing field but JSON null for a null one
    jsonFieldAbsent: (column, field) =>
      sql<boolean>`coalesce(${sql.ref(column)}::jsonb -> ${field}, 'null'::jsonb) = 'null'::jsonb`,
    async withMigrationLock(db, fn) {
      await sql`select pg_advisory_lock(${sql.lit(MIGRATION_LOCK_KEY)})`.execute(
        db,
      )
      try {
        if (schema !== undefined) {
          await sql`create schema if not exists ${sql.id(schema)}`.execute(db)
        }
        return await fn(db)
      } finally {
        await sql`select pg_advisory_unlock(${sql.lit(MIGRATION_LOCK_KEY)})`
          .execute(db)
          .catch(() => undefined)
      }
    },
  }
}
