import type BetterSqlite3 from 'better-sqlite3'
import type { SqliteDatabase } from 'kysely'

/** Prepared statements kept, least recently used dropped first. */
const CACHED = 500

/**
 * The connection as kysely's SqliteDialect sees it, with prepared
 * statements reused by their SQL text. kysely prepares every query anew,
 * and for the store's short queries SQLite's prepare costs about as much
 * as running them (the monitor sweep's page write is a thousand of them).
 * A statement still iterating (a streamed query) is not shared: a fresh
 * one is prepared for the caller.
 * @internal
 */
export function sqliteStatementCache(
  database: BetterSqlite3.Database,
  size = CACHED,
): SqliteDatabase {
  const statements = new Map<string, BetterSqlite3.Statement>()
  return {
    prepare(sql) {
      const kept = statements.get(sql)
      if (kept !== undefined) {
        if (kept.busy) return database.prepare(sql)
        // re-inserted: the Map's order is the recency order
        statements.delete(sql)
        statements.set(sql, kept)
        return kept
      }
      const fresh = database.prepare(sql)
      statements.set(sql, fresh)
      if (statements.size > size) {
        const oldest = statements.keys().next().value
        if (oldest !== undefined) statements.delete(oldest)
      }
      return fresh
    },
    close() {
      statements.clear()
      database.close()
    },
  }
}
