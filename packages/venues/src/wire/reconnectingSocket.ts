import { WebSocket } from 'undici'

export type SocketState = 'connecting' | 'open' | 'closed'

interface ReconnectingSocketOptions {
  /** `ws://` or `wss://` */
  readonly url: string
  /** sends the subscriptions; called after every (re)connect */
  onOpen(send: (text: string) => void): void
  onMessage(text: string): void
  /** keep-alive: the frame the venue expects, and how often */
  readonly ping?:
    | { readonly text: string; readonly everyMs: number }
    | undefined
  /**
   * no frame for this long means the connection is dead: it is closed and
   * opened again @default 60_000
   */
  readonly silentMs?: number | undefined
  /** first reconnect delay; doubles per failure @default 500 */
  readonly minDelayMs?: number | undefined
  /** @default 30_000 */
  readonly maxDelayMs?: number | undefined
  onState?(state: SocketState): void
}

export interface ReconnectingSocket {
  /** Sends now if open; frames sent while closed are dropped. */
  send(text: string): void
  state(): SocketState
  /** Closes for good: no reconnect. */
  close(): void
}

/**
 * A venue WebSocket that stays connected: on a close, an error or a
 * silence longer than `silentMs` it reconnects after a delay that doubles
 * (up to `maxDelayMs`) and resets once frames flow again, and it sends
 * the subscriptions again after each connect. Callers decide, from when
 * frames last arrived, whether its data is fresh enough to use.
 * @example
 * const socket = openReconnectingSocket({ url, onOpen: (send) => send(sub),
 *   onMessage: (text) => handle(JSON.parse(text)) })
 */
export function openReconnectingSocket(
  o: ReconnectingSocketOptions,
): ReconnectingSocket {
  const minDelay = o.minDelayMs ?? 500
  const maxDelay = o.maxDelayMs ?? 30_000
  const silentMs = o.silentMs ?? 60_000
  let delay = minDelay
  let ws: WebSocket | undefined
  let state: SocketState = 'connecting'
  let closed = false
  let retry: ReturnType<typeof setTimeout> | undefined
  let pinger: ReturnType<typeof setInterval> | undefined
  let watchdog: ReturnType<typeof setInterval> | undefined
  let lastFrame = 0

  const setState = (s: SocketState) => {
    if (s === state) return
    state = s
    o.onState?.(s)
  }

  function stopTimers() {
    if (pinger) clearInterval(pinger)
    if (watchdog) clearInterval(watchdog)
    pinger = undefined
    watchdog = undefined
  }

  function connect() {
    if (closed) return
    setState('connecting')
    let socket: WebSocket
    try {
      socket = new WebSocket(o.url)
    } catch {
      scheduleReconnect()
      return
    }
    ws = socket
    socket.onopen = () => {
      lastFrame = Date.now()
      setState('open')
      o.onOpen((text) => socket.send(text))
      if (o.ping) {
        const { text, everyMs } = o.ping
        pinger = setInterval(() => socket.send(text), everyMs)
        pinger.unref?.()
      }
      watchdog = setInterval(
        () => {
          if (Date.now() - lastFrame > silentMs) socket.close()
        },
        Math.max(50, Math.min(silentMs / 4, 5_000)),
      )
      watchdog.unref?.()
    }
    socket.onmessage = (ev) => {
      lastFrame = Date.now()
      delay = minDelay
      const data: unknown = ev.data
      if (typeof data === 'string') o.onMessage(data)
      else if (data instanceof ArrayBuffer)
        o.onMessage(Buffer.from(data).toString('utf8'))
    }
    socket.onerror = () => {
      // a close follows every error
    }
    socket.onclose = () => {
      stopTimers()
      if (ws === socket) ws = undefined
      scheduleReconnect()
    }
  }

  function scheduleReconnect() {
    if (closed) return
    setState('connecting')
    retry = setTimeout(connect, delay)
    retry.unref?.()
    delay = Math.min(maxDelay, delay * 2)
  }

  connect()
  return {
    send(text) {
      if (ws && state === 'open') ws.send(text)
    },
    state: () => state,
    close() {
      closed = true
      if (retry) clearTimeout(retry)
      stopTimers()
      ws?.close()
      ws = undefined
      setState('closed')
    },
  }
}
