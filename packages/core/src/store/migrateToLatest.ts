import { type Kysely, type MigrationProvider, Migrator } from 'kysely'
import type { Database } from './database.js'
import type { DialectSpec } from './dialectSpec.js'
import { migrations } from './migrations.js'
import { StoreError } from './storeError.js'

/**
 * Brings the schema up to date. Runs on one connection under the dialect's
 * migration lock, so several processes starting at once apply each
 * migration exactly once.
 * @throws {StoreError} when a migration fails
 */
export async function migrateToLatest(
  db: Kysely<Database>,
  dialect: DialectSpec,
): Promise<void> {
  const provider: MigrationProvider = {
    getMigrations: async () => migrations(dialect.types),
  }
  await db.connection().execute((conn) =>
    dialect.withMigrationLock(conn, async (locked) => {
      const migrator = new Migrator({
        db: locked,
        provider,
        ...(dialect.migrationTableSchema === undefined
          ? {}
          : { migrationTableSchema: dialect.migrationTableSchema }),
      })
      const { error, results } = await migrator.migrateToLatest()
      if (error !== undefined) {
        const failed = results?.find((r) => r.status === 'Error')
        throw new StoreError(
          `migration ${failed?.migrationName ?? '(setup)'} failed`,
          { cause: error },
        )
      }
    }),
  )
}
