import { EventEmitter } from 'node:events'
import type { Kysely } from 'kysely'
import type { Database } from './database.js'
import { StoreError } from './storeError.js'

/**
 * How a store wakes listeners (see `Store.notify` / `Store.listen`).
 * @internal
 */
export interface Notifier {
  /**
   * True when the database itself holds back a notification sent inside a
   * transaction until that transaction commits (PostgreSQL NOTIFY). When
   * false the store defers it to after commit itself.
   */
  readonly transactional: boolean
  /** Sends on `db`: the store's pool, or the open transaction's connection. */
  notify(db: Kysely<Database>, channel: string): Promise<void>
  /**
   * The parameter-free statement `notify` runs inside a transaction, when
   * there is one (a transactional notifier): the store sends it with the
   * commit in one round trip.
   */
  readonly statement?: ((channel: string) => string) | undefined
  listen(channel: string, onWake: () => void): Promise<() => Promise<void>>
  /** Drops every subscription and frees what the notifier holds. */
  close(): Promise<void>
}

/**
 * A notifier that can lose notifications (a connection that drops) and
 * says when it cannot: PostgreSQL's.
 * @internal
 */
export interface ListeningNotifier extends Notifier {
  /**
   * The listening session that delivers `channel` now: a number that
   * changes whenever notifications may have been missed (a reconnect), or
   * `undefined` while none is live.
   */
  session(channel: string): number | undefined
}

/** A PostgreSQL identifier in lowercase, so NOTIFY and LISTEN agree on it. */
const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/

/** @throws {StoreError} unless `channel` is a plain lowercase identifier */
export function checkChannel(channel: string): void {
  if (!CHANNEL.test(channel)) {
    throw new StoreError(`invalid notification channel: ${channel}`)
  }
}

/**
 * Calls `onWake` on a later turn of the event loop, outside the caller's
 * stack (so a listener never runs inside the notifier's transaction), and
 * swallows whatever it throws or rejects with.
 */
export function wakeSoon(onWake: () => unknown): void {
  setImmediate(() => {
    try {
      const result = onWake()
      if (result instanceof Promise) result.catch(() => undefined)
    } catch {
      // a listener's failure is its own business, never the notifier's
    }
  })
}

/**
 * In-process notifications for SQLite: one EventEmitter per store. Other
 * processes (and other stores on the same file) are not woken; they find
 * due work on their next poll.
 * @internal
 */
export function localNotifier(): Notifier {
  const emitter = new EventEmitter()
  emitter.setMaxListeners(0)
  let closed = false
  return {
    transactional: false,
    async notify(_db, channel) {
      // prefixed, so a channel named `error` is not EventEmitter's error event
      emitter.emit(`wake:${channel}`)
    },
    async listen(channel, onWake) {
      if (closed) throw new StoreError('store is closed')
      const listener = () => wakeSoon(onWake)
      emitter.on(`wake:${channel}`, listener)
      return async () => {
        emitter.off(`wake:${channel}`, listener)
      }
    },
    async close() {
      closed = true
      emitter.removeAllListeners()
    },
  }
}
