import BetterSqlite3 from 'better-sqlite3'

/**
 * Opens a better-sqlite3 connection set up for the store: WAL journal,
 * `synchronous=FULL`, a 5 s busy timeout (other processes' writers queue
 * instead of failing) and foreign keys on. `':memory:'` works (its journal
 * mode stays `memory`).
 * @internal
 */
export function openSqliteDatabase(filename: string): BetterSqlite3.Database {
  const database = new BetterSqlite3(filename)
  try {
    database.pragma('busy_timeout = 5000')
    database.pragma('journal_mode = WAL')
    database.pragma('synchronous = FULL')
    database.pragma('foreign_keys = ON')
    return database
  } catch (err) {
    database.close()
    throw err
  }
}
