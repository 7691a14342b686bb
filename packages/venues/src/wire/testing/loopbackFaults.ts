import { createServer as createHttpServer } from 'node:http'
import {
  type AddressInfo,
  createServer as createNetServer,
  type Server,
  type Socket,
} from 'node:net'

/** A loopback server that misbehaves one way, and how to stop it. */
export interface FaultServer {
  readonly port: number
  /** connections accepted so far */
  accepted(): number
  /** requests (or request bytes, for raw servers) received so far */
  received(): number
  close(): Promise<void>
}

/**
 * How a raw TCP peer treats each connection:
 * - `fin` / `reset`: closes (FIN) or resets (RST) it at once, reading
 *   nothing;
 * - `resetOnData` / `finOnData`: reads the first bytes (a ClientHello, or
 *   a request), then resets or closes;
 * - `silent`: reads and never answers (a TLS handshake that stalls).
 */
export type PeerFault = 'fin' | 'reset' | 'resetOnData' | 'finOnData' | 'silent'

/**
 * Test kit: a raw TCP peer on 127.0.0.1 with `fault`. Spoken to over
 * `https://` it fails the TLS handshake, over `http://` the request.
 * @internal
 */
export async function startFaultPeer(fault: PeerFault): Promise<FaultServer> {
  let accepted = 0
  let received = 0
  const sockets = new Set<Socket>()
  const server = createNetServer((socket) => {
    accepted++
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => {})
    socket.on('data', (chunk) => {
      received += chunk.length
    })
    if (fault === 'fin') socket.end()
    else if (fault === 'reset') socket.resetAndDestroy()
    else if (fault === 'resetOnData') {
      socket.once('data', () => socket.resetAndDestroy())
    } else if (fault === 'finOnData') socket.once('data', () => socket.end())
  })
  return started(
    server,
    sockets,
    () => accepted,
    () => received,
  )
}

/**
 * Test kit: an HTTP/1.1 server on 127.0.0.1 that answers the first
 * request `ok` (kept alive) and, with `onLater`, closes the socket when a
 * later request arrives on it or holds that request unanswered.
 * @internal
 */
export async function startKeepAliveServer(
  onLater: 'close' | 'hold',
): Promise<FaultServer> {
  let accepted = 0
  let received = 0
  const sockets = new Set<Socket>()
  const server = createHttpServer((req, res) => {
    received++
    req.resume()
    req.on('end', () => {
      if (received === 1) res.end('ok')
      else if (onLater === 'close') req.socket.destroy()
    })
  })
  server.keepAliveTimeout = 60_000
  server.on('connection', (socket: Socket) => {
    accepted++
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  return started(
    server,
    sockets,
    () => accepted,
    () => received,
  )
}

/** A port on 127.0.0.1 nothing listens on (it was free a moment ago). */
export async function closedPort(): Promise<number> {
  const server = createNetServer()
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((r) => server.close(() => r()))
  return port
}

async function started(
  server: Server,
  sockets: Set<Socket>,
  accepted: () => number,
  received: () => number,
): Promise<FaultServer> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  return {
    port,
    accepted,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      }),
  }
}
