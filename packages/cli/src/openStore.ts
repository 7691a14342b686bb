import { closeSync, openSync } from 'node:fs'
import { join } from 'node:path'
import type { Store } from '@dn/core'

/**
 * Opens the store named by `db`: a `postgres://` URL, `sqlite:<path>`, or
 * nothing for the embedded SQLite file in the data folder. DN_DB_SCHEMA
 * picks a PostgreSQL schema other than `public`. Drivers load
 * lazily so a SQLite deployment never loads pg and vice versa.
 */
export async function openStore(
  db: string | undefined,
  dataDir: string,
): Promise<Store> {
  if (db && /^postgres(ql)?:\/\//.test(db)) {
    const { createPostgresStore } = await import('@dn/core/postgres')
    const schema = process.env.DN_DB_SCHEMA
    return createPostgresStore({
      connectionString: db,
      ...(schema ? { schema } : {}),
    })
  }
  const filename = db?.startsWith('sqlite:')
    ? db.slice('sqlite:'.length)
    : join(dataDir, 'dn.sqlite')
  // it holds the venue credentials (encrypted) and the API key hashes:
  // readable by its owner only, as the master key is (SQLite gives its
  // journal and WAL files the database file's mode)
  if (filename !== ':memory:') closeSync(openSync(filename, 'a', 0o600))
  const { createSqliteStore } = await import('@dn/core/sqlite')
  return createSqliteStore({ filename })
}
