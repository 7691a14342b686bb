import type { Kysely } from 'kysely'
import type { ChangeKind } from './changeWatch.js'
import type { Database } from './database.js'
import type { DialectSpec } from './dialectSpec.js'

/** What a repository runs its queries on: the store itself or a transaction. */
export interface RepoScope {
  readonly dialect: DialectSpec
  /** the executor for one query */
  db(): Kysely<Database>
  /**
   * Runs several statements atomically: in the enclosing transaction when
   * there is one, else in a new one.
   */
  atomic<T>(fn: (db: Kysely<Database>) => Promise<T>): Promise<T>
  /**
   * Tells the store's caches of `kind` that the statement just run changed
   * what they hold (in its transaction: they learn of it on commit). Call
   * through {@link recordChange}, which raises the kind's counter first.
   */
  changed(kind: ChangeKind): Promise<void>
}
