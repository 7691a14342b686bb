import { createHash } from 'node:crypto'
import { type Kysely, sql } from 'kysely'
import type { Database } from './database.js'
import type { ListeningNotifier } from './notifier.js'

/** The counter a revocation raises, in the revoking transaction. */
export const REVOCATION_COUNTER = 'api_key_revocations'

/**
 * The channel a revocation is announced on (PostgreSQL). Channels are per
 * database and keys per schema, so each schema has its own.
 */
export function revokedChannel(schema: string | undefined): string {
  if (schema === undefined) return 'dn_api_key_revoked'
  const tag = createHash('sha256').update(schema).digest('hex').slice(0, 16)
  return `dn_api_key_revoked_${tag}`
}

/**
 * How a store tells a key cache that a revocation may have committed
 * (`Store.revocationMark`).
 * @internal
 */
export interface RevocationWatch {
  mark(): Promise<string | undefined>
  /** inside the revoking transaction, after its counter is raised */
  revoked(
    db: Kysely<Database>,
    afterCommit: (hook: () => void) => void,
  ): Promise<void>
  close(): Promise<void>
}

/**
 * SQLite: the revocation counter itself, read on every call. One indexed
 * read of a one-row key (well under the key row's read and decode), and
 * exact across processes: the counter commits with the revocation.
 * @internal
 */
export function counterRevocationWatch(db: Kysely<Database>): RevocationWatch {
  const query = sql<{
    value: number | bigint
  }>`select value from counters where name = ${REVOCATION_COUNTER}`
  return {
    async mark() {
      const row = (await query.execute(db)).rows[0]
      return String(row?.value ?? 0)
    },
    async revoked() {},
    async close() {},
  }
}

/**
 * PostgreSQL: LISTEN on the schema's {@link revokedChannel}, so a cached key costs no
 * round trip. The mark is the listening session (it changes on every
 * reconnect, since notifications sent while the connection was down are
 * lost) and the count of revocations heard in it; while nothing listens
 * the mark is `undefined` and every key is read again. A revocation in
 * this process moves the mark as soon as it commits, before its own
 * notification comes back.
 * @internal
 */
export function notifyRevocationWatch(
  notifier: ListeningNotifier,
  channel: string,
): RevocationWatch {
  let heard = 0
  let subscription: Promise<() => Promise<void>> | undefined
  const subscribe = () => {
    subscription ??= notifier.listen(channel, () => {
      heard += 1
    })
    // a failed LISTEN is tried again on the next call
    subscription.catch(() => {
      subscription = undefined
    })
  }
  return {
    async mark() {
      subscribe()
      const session = notifier.session(channel)
      return session === undefined ? undefined : `${session}:${heard}`
    },
    async revoked(db, afterCommit) {
      await notifier.notify(db, channel)
      afterCommit(() => {
        heard += 1
      })
    },
    async close() {
      const unsubscribe = await subscription?.catch(() => undefined)
      await unsubscribe?.()
    },
  }
}
