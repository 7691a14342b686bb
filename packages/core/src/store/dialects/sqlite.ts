import { sql } from 'kysely'
import type { DialectSpec } from '../dialectSpec.js'

/**
 * SQLite: one connection per process, so transactions open with
 * `BEGIN IMMEDIATE`: the write lock is taken up front and writers from other
 * processes queue on `busy_timeout` instead of failing with SQLITE_BUSY when
 * a deferred reader upgrades. Migrations run inside such a transaction, which
 * also serializes them across processes.
 */
export function sqlite(): DialectSpec {
  return {
    name: 'sqlite',
    begin: 'begin immediate',
    types: { micros: 'integer', decimal: 'text', bool: 'integer' },
    rowLocks: false,
    batchedStatements: false,
    bool: (value) => (value ? 1 : 0),
    // json_extract gives SQL NULL for a JSON null and for a missing field
    jsonFieldAbsent: (column, field) =>
      sql<boolean>`json_extract(${sql.ref(column)}, ${`$.${field}`}) is null`,
    async withMigrationLock(db, fn) {
      await sql`begin immediate`.execute(db)
      try {
        const result = await fn(db)
        await sql`commit`.execute(db)
        return result
      } catch (err) {
        await sql`rollback`.execute(db).catch(() => undefined)
        throw err
      }
    },
  }
}
