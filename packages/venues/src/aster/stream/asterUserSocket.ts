import { WebSocket } from 'ws'

/**
 * One connection of a user data stream, and how recently it was heard
 * from. It pings the venue itself: a user stream sends events only when
 * the account changes and the venue pings only every 5 minutes, so
 * without our pings a connection that died silently would look alive for
 * minutes. RFC 6455 §5.5.2 obliges the server to answer each ping with a
 * pong, whatever Aster's own rules. The `ws` package is used here (not
 * wire/reconnectingSocket, which is undici's WebSocket) because it sends
 * ping frames and shows pongs and the venue's pings; reconnecting is the
 * caller's, since a user stream must get a live listenKey before each
 * connect.
 */
interface AsterUserSocketOptions {
  /** `wss://…/ws/<listenKey>` */
  readonly url: string
  /** ms between our pings */
  readonly pingMs: number
  /** nothing heard for this long: the connection is dead and is ended */
  readonly silentMs: number
  onOpen(): void
  onMessage(text: string): void
  /** once, when the connection ends for any reason (also a failed connect) */
  onClose(): void
}

export interface AsterUserSocket {
  /** true from open until it ends */
  isOpen(): boolean
  /** wall-clock ms of the last frame, pong or ping received (0: none) */
  lastHeard(): number
  /** Ends the connection (onClose follows). */
  close(): void
}

export function openAsterUserSocket(
  o: AsterUserSocketOptions,
): AsterUserSocket {
  let open = false
  let ended = false
  let heard = 0
  let timer: ReturnType<typeof setInterval> | undefined
  const ws = new WebSocket(o.url)
  const hear = () => {
    heard = Date.now()
  }
  const end = () => {
    if (ended) return
    ended = true
    open = false
    if (timer) clearInterval(timer)
    o.onClose()
  }
  ws.on('open', () => {
    open = true
    hear()
    timer = setInterval(
      () => {
        if (Date.now() - heard > o.silentMs) {
          ws.terminate()
          return
        }
        if (ws.readyState === WebSocket.OPEN) ws.ping()
      },
      Math.max(10, Math.min(o.pingMs, o.silentMs / 2)),
    )
    timer.unref?.()
    o.onOpen()
  })
  ws.on('message', (data, isBinary) => {
    hear()
    if (!isBinary) o.onMessage(String(data))
  })
  ws.on('pong', hear)
  ws.on('ping', hear)
  ws.on('unexpected-response', (_req, res) => {
    // the venue refused the upgrade (e.g. a listenKey it does not know)
    res.resume()
    ws.terminate()
  })
  ws.on('error', () => {
    // a close follows every error
  })
  ws.on('close', end)
  return {
    isOpen: () => open,
    lastHeard: () => heard,
    close() {
      if (ws.readyState === WebSocket.CONNECTING) ws.terminate()
      else ws.close()
      end()
    },
  }
}
