import type { StreamedAccount, VenueCredential } from '@dn/core'
import { type AsterUserEvent, readAsterUserEvent } from './asterUserEvents.js'
import { type AsterUserSocket, openAsterUserSocket } from './asterUserSocket.js'

/**
 * The signed `/fapi/v3/listenKey` requests of one account, sent by the
 * adapter (its transport, budget, nonces and signing). The doc lists no
 * parameter for PUT: it acts on the account's active key. We never send
 * DELETE: that key is the account's one active key, shared by every
 * process that POSTs for it, so a worker dropping an account (its shard
 * moved to another worker) or stopping would end the other's stream. An
 * unused key lapses 60 min after its last keep-alive.
 */
export interface AsterListenKeys {
  /** POST: a new key, or the account's active key extended by 60 min */
  open(cred: VenueCredential): Promise<string>
  /** PUT: the active key lives 60 min more */
  keepAlive(cred: VenueCredential): Promise<void>
}

interface AsterUserStreamOptions {
  readonly account: StreamedAccount
  /** the WebSocket base, e.g. `wss://fstream.asterdex.com` */
  readonly url: string
  readonly listenKeys: AsterListenKeys
  readonly keepAliveMs: number
  readonly pingMs: number
  readonly silentMs: number
  readonly minDelayMs: number
  readonly maxDelayMs: number
  /** a connection opened: events may have been missed before it */
  onConnected(): void
  onEvent(event: AsterUserEvent): void
}

export interface AsterUserStream {
  /** open, its key live and heard from within `silentMs` */
  live(): boolean
  /** the key in use, while one is */
  listenKey(): string | undefined
  /** Takes the account's newest credential source. */
  setAccount(account: StreamedAccount): void
  /** Ends for good: the socket closes; the key lapses unless kept alive elsewhere. */
  stop(): void
}

/**
 * One account's user data stream: a listenKey (POST), kept alive by PUT
 * every `keepAliveMs`, and a connection to `/ws/<listenKey>`. Each
 * (re)connect first POSTs, which returns the live key or a new one, so a
 * key that expired or was replaced while the socket was down is never
 * dialled. A dropped or silent connection, a failed keep-alive and a
 * `listenKeyExpired` event all end the connection: live() is false until
 * a new one opens, after a delay that doubles from `minDelayMs` to
 * `maxDelayMs` (reset once a connection opens; `listenKeyExpired` retries
 * at once).
 */
export function startAsterUserStream(
  o: AsterUserStreamOptions,
): AsterUserStream {
  let account = o.account
  let stopped = false
  let key: string | undefined
  let keyLive = false
  let socket: AsterUserSocket | undefined
  let delay = o.minDelayMs
  let retry: ReturnType<typeof setTimeout> | undefined

  const keeper = setInterval(keepAlive, o.keepAliveMs)
  keeper.unref?.()

  function schedule() {
    if (stopped || retry) return
    retry = setTimeout(connect, delay)
    retry.unref?.()
    delay = Math.min(o.maxDelayMs, delay * 2)
  }

  async function connect() {
    retry = undefined
    if (stopped) return
    try {
      key = await o.listenKeys.open(await account.credential())
      keyLive = true
    } catch {
      keyLive = false
      schedule()
      return
    }
    // stop() came while the key was asked for: it lapses unused
    if (stopped) return
    const s = openAsterUserSocket({
      url: `${o.url.replace(/\/+$/, '')}/ws/${encodeURIComponent(key)}`,
      pingMs: o.pingMs,
      silentMs: o.silentMs,
      onOpen() {
        delay = o.minDelayMs
        o.onConnected()
      },
      onMessage(text) {
        const ev = readAsterUserEvent(text)
        if (!ev) return
        if (ev.kind === 'expired') {
          // no event comes on this key any more: a new one, now
          keyLive = false
          delay = o.minDelayMs
          s.close()
          return
        }
        o.onEvent(ev)
      },
      onClose() {
        if (socket === s) socket = undefined
        schedule()
      },
    })
    socket = s
  }

  async function keepAlive() {
    if (stopped || !keyLive || !socket) return
    try {
      await o.listenKeys.keepAlive(await account.credential())
    } catch {
      // the key may lapse: stop trusting it, and start again from a POST
      keyLive = false
      socket?.close()
    }
  }

  void connect()
  return {
    live() {
      const s = socket
      if (stopped || !keyLive || !s?.isOpen()) return false
      return Date.now() - s.lastHeard() <= o.silentMs
    },
    listenKey: () => (keyLive ? key : undefined),
    setAccount(a) {
      account = a
    },
    stop() {
      if (stopped) return
      stopped = true
      clearInterval(keeper)
      if (retry) clearTimeout(retry)
      socket?.close()
    },
  }
}
