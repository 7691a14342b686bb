import { sql } from 'kysely'
import pg from 'pg'
import { checkChannel, type ListeningNotifier, wakeSoon } from '../notifier.js'
import { StoreError } from '../storeError.js'

const RETRY_MIN_MS = 500
const RETRY_MAX_MS = 30_000

interface Channel {
  readonly subscribers: Set<() => void>
  /** settles once LISTEN ran for this channel */
  readonly ready: Promise<void>
}

/**
 * PostgreSQL `NOTIFY` / `LISTEN`. Notifications go out on the caller's
 * connection via `pg_notify`, so one sent inside a transaction is delivered
 * when it commits (and never if it rolls back). Listening uses one dedicated
 * client per store, opened on the first `listen` and shared by every
 * channel; the last unsubscribe of a channel UNLISTENs it. If that client's
 * connection drops while channels are subscribed, it reconnects with
 * backoff, LISTENs again and wakes every subscriber once, since
 * notifications sent meanwhile are lost. Channels are per database, not per
 * schema.
 * @internal
 */
export function postgresNotifier(connectionString: string): ListeningNotifier {
  const channels = new Map<string, Channel>()
  let client: Promise<pg.Client> | undefined
  let retry: NodeJS.Timeout | undefined
  let retryMs = RETRY_MIN_MS
  let closed = false
  // LISTEN sessions: which connection (numbered from 1) listens to each
  // channel now
  let connectionId = 0
  const listening = new Map<string, number>()
  /** after LISTEN on connection `id`: live, unless that connection is gone */
  const listened = (name: string, id: number) => {
    if (client !== undefined && connectionId === id) listening.set(name, id)
  }

  const connect = (): Promise<pg.Client> => {
    if (client !== undefined) return client
    const c = new pg.Client({ connectionString })
    const attempt: Promise<pg.Client> = c.connect().then(() => c)
    client = attempt
    connectionId += 1
    c.on('notification', (message) => {
      const channel = channels.get(message.channel)
      for (const wake of channel?.subscribers ?? []) wakeSoon(wake)
    })
    // Without an 'error' listener a dropped connection would crash the process.
    c.on('error', () => lost(attempt))
    c.on('end', () => lost(attempt))
    attempt.catch(() => lost(attempt))
    return attempt
  }

  const lost = (attempt: Promise<pg.Client>) => {
    if (client !== attempt) return
    client = undefined
    listening.clear()
    void attempt.then((c) => c.end()).catch(() => undefined)
    scheduleReconnect()
  }

  const scheduleReconnect = () => {
    if (closed || retry !== undefined || channels.size === 0) return
    retry = setTimeout(() => void reconnect(), retryMs)
    retry.unref()
    retryMs = Math.min(retryMs * 2, RETRY_MAX_MS)
  }

  const reconnect = async () => {
    retry = undefined
    if (closed || channels.size === 0) return
    try {
      const c = await connect()
      const id = connectionId
      for (const name of channels.keys()) {
        await c.query(`LISTEN ${name}`)
        listened(name, id)
      }
      retryMs = RETRY_MIN_MS
      for (const channel of channels.values()) {
        for (const wake of channel.subscribers) wakeSoon(wake)
      }
    } catch {
      scheduleReconnect()
    }
  }

  return {
    transactional: true,
    async notify(db, channel) {
      await sql.raw(notifyStatement(channel)).execute(db)
    },
    statement: notifyStatement,
    async listen(name, onWake) {
      if (closed) throw new StoreError('store is closed')
      let channel = channels.get(name)
      if (channel === undefined) {
        const ready = connect().then(async (c) => {
          const id = connectionId
          await c.query(`LISTEN ${name}`)
          listened(name, id)
        })
        channel = { subscribers: new Set(), ready: ready.then(() => undefined) }
        channels.set(name, channel)
      }
      const entry = channel
      // one function per subscription, so subscribing a callback twice
      // needs two unsubscribes
      const subscriber = () => onWake()
      entry.subscribers.add(subscriber)
      let subscribed = true
      const unsubscribe = async () => {
        if (!subscribed) return
        subscribed = false
        entry.subscribers.delete(subscriber)
        if (entry.subscribers.size > 0 || channels.get(name) !== entry) return
        channels.delete(name)
        listening.delete(name)
        const current = client
        if (current === undefined || closed) return
        // a dead connection listens to nothing; nothing to undo then
        await current
          .then((c) => c.query(`UNLISTEN ${name}`))
          .catch(() => undefined)
      }
      try {
        await entry.ready
      } catch (err) {
        await unsubscribe()
        throw new StoreError(`could not listen on ${name}`, { cause: err })
      }
      return unsubscribe
    },
    session(name) {
      return listening.get(name)
    },
    async close() {
      closed = true
      listening.clear()
      if (retry !== undefined) clearTimeout(retry)
      retry = undefined
      channels.clear()
      const current = client
      client = undefined
      if (current !== undefined) {
        await current.then((c) => c.end()).catch(() => undefined)
      }
    },
  }
}

/**
 * NOTIFY for a channel `checkChannel` accepted (a lowercase identifier,
 * as LISTEN names it): no parameter, so it can share a round trip.
 */
function notifyStatement(channel: string): string {
  checkChannel(channel)
  return `notify ${channel}`
}
