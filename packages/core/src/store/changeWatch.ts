import { createHash } from 'node:crypto'
import { type Kysely, sql } from 'kysely'
import type { Database } from './database.js'
import type { ListeningNotifier } from './notifier.js'

/**
 * What a store's caches watch: API key revocations (`Store.revocationMark`)
 * and venue binding writes (`Store.bindingMark`).
 */
export type ChangeKind = 'revocations' | 'bindings'

/** The counter a change raises, in the changing transaction. */
export const CHANGE_COUNTERS: Readonly<Record<ChangeKind, string>> = {
  revocations: 'api_key_revocations',
  bindings: 'venue_binding_changes',
}

const CHANNELS: Readonly<Record<ChangeKind, string>> = {
  revocations: 'dn_api_key_revoked',
  bindings: 'dn_venue_binding_changed',
}

/**
 * The channel a change is announced on (PostgreSQL). Channels are per
 * database and rows per schema, so each schema has its own.
 */
export function changeChannel(
  kind: ChangeKind,
  schema: string | undefined,
): string {
  if (schema === undefined) return CHANNELS[kind]
  const tag = createHash('sha256').update(schema).digest('hex').slice(0, 16)
  return `${CHANNELS[kind]}_${tag}`
}

/**
 * How a store tells a cache that a change of one kind may have committed.
 * @internal
 */
export interface ChangeWatch {
  mark(): Promise<string | undefined>
  /** inside the changing transaction, after its counter is raised */
  changed(
    db: Kysely<Database>,
    afterCommit: (hook: () => void) => void,
  ): Promise<void>
  close(): Promise<void>
}

/** One watch per kind. @internal */
export type ChangeWatches = Readonly<Record<ChangeKind, ChangeWatch>>

/**
 * SQLite: the change counter itself, read on every call. One indexed
 * read of a one-row key (well under the cached row's read and decode), and
 * exact across processes: the counter commits with the change.
 * @internal
 */
export function counterChangeWatches(db: Kysely<Database>): ChangeWatches {
  const watch = (kind: ChangeKind): ChangeWatch => {
    const query = sql<{
      value: number | bigint
    }>`select value from counters where name = ${CHANGE_COUNTERS[kind]}`
    return {
      async mark() {
        const row = (await query.execute(db)).rows[0]
        return String(row?.value ?? 0)
      },
      async changed() {},
      async close() {},
    }
  }
  return { revocations: watch('revocations'), bindings: watch('bindings') }
}

/**
 * PostgreSQL: LISTEN on the schema's {@link changeChannel}, so a cached row
 * costs no round trip. The mark is the listening session (it changes on
 * every reconnect, since notifications sent while the connection was down
 * are lost) and the count of changes heard in it; while nothing listens
 * the mark is `undefined` and every row is read again. A change in this
 * process moves the mark as soon as it commits, before its own
 * notification comes back.
 * @internal
 */
export function notifyChangeWatches(
  notifier: ListeningNotifier,
  schema: string | undefined,
): ChangeWatches {
  const watch = (channel: string): ChangeWatch => {
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
      async changed(db, afterCommit) {
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
  return {
    revocations: watch(changeChannel('revocations', schema)),
    bindings: watch(changeChannel('bindings', schema)),
  }
}
