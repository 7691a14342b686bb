import type { ColumnDataType, Kysely, RawBuilder } from 'kysely'
import type { Database } from './database.js'

/** Column types the one migration set maps per dialect. */
export interface DialectColumnTypes {
  /** epoch microseconds */
  readonly micros: ColumnDataType
  /** exact decimals */
  readonly decimal: ColumnDataType
  readonly bool: ColumnDataType
}

/**
 * Everything that differs between SQLite and PostgreSQL, so the repositories
 * and the migrations stay dialect-free.
 */
export interface DialectSpec {
  readonly name: 'sqlite' | 'postgres'
  /** statement that opens a read-write transaction */
  readonly begin: string
  readonly types: DialectColumnTypes
  /** schema for kysely's migration tables, when not the default one */
  readonly migrationTableSchema?: string | undefined
  /**
   * True when the database locks single rows (PostgreSQL): a claim is one
   * statement selecting `FOR UPDATE SKIP LOCKED`. False (SQLite): the claim
   * statement runs in a write transaction, which excludes other writers.
   */
  readonly rowLocks: boolean
  /**
   * True when the driver sends several parameter-free statements in one
   * round trip (PostgreSQL's simple query protocol): the store then sends a
   * shared commit's savepoint releases with the statement that follows
   * them. False (SQLite prepares one statement at a time, in process).
   */
  readonly batchedStatements: boolean
  /** a boolean as the driver binds it */
  bool(value: boolean): boolean | number
  /**
   * True where the JSON text in `column` has no `field` at its top level,
   * or has it as JSON null (a null column counts as no field).
   */
  jsonFieldAbsent(column: string, field: string): RawBuilder<boolean>
  /**
   * Runs `fn` holding a lock that serializes migrations across processes;
   * `db` is bound to a single connection.
   */
  withMigrationLock<T>(
    db: Kysely<Database>,
    fn: (db: Kysely<Database>) => Promise<T>,
  ): Promise<T>
}
