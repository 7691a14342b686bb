import { readFileSync } from 'node:fs'
import type { Server } from 'node:http'
import type { Socket } from 'node:net'
import type { Logger } from '../logger.js'

interface ConnectionLimits {
  /** open connections the server keeps, all clients together */
  readonly maxConnections: number
  /** open connections one client address keeps */
  readonly maxPerClient: number
}

/** Open connections at most, whatever the file limit allows. */
const MAX_CONNECTIONS_CEILING = 8_192
/** One client address's connections at most, by default. */
export const DEFAULT_MAX_PER_CLIENT = 1_024
/** How often a cap reached is logged, at most. */
const LOG_EVERY_MS = 60_000

/**
 * The default cap on open connections: half the process's open-file limit
 * (the rest is for the database, venue sockets and logs), at most 8,192.
 * Idle connections used to pile up until accept() failed for want of file
 * descriptors and `/health` went unanswered.
 * @param limitsText `/proc/self/limits`, read when not given (Linux)
 */
export function defaultMaxConnections(limitsText?: string): number {
  let text = limitsText
  if (text === undefined) {
    try {
      text = readFileSync('/proc/self/limits', 'utf8')
    } catch {
      return MAX_CONNECTIONS_CEILING
    }
  }
  const soft = /^Max open files\s+(\d+|unlimited)/m.exec(text)?.[1]
  if (soft === undefined || soft === 'unlimited') return MAX_CONNECTIONS_CEILING
  return Math.max(
    64,
    Math.min(MAX_CONNECTIONS_CEILING, Math.floor(Number(soft) / 2)),
  )
}

interface Tracked {
  readonly address: string
  /** requests read and not yet answered */
  busy: number
}

/**
 * Caps open connections, all together and per client address. A new
 * connection over a cap closes the oldest idle connection in its way (no
 * request in flight: connected and silent, or kept alive between
 * requests); when every one of them is busy the new connection is closed
 * instead. So an attacker holding idle sockets gives way to whoever
 * connects next, and no answer in progress is ever cut.
 */
export function limitConnections(
  server: Server,
  limits: ConnectionLimits,
  logger: Logger,
  now: () => number = Date.now,
): {
  /** connections open */
  readonly open: () => number
  /** requests read and not yet answered */
  readonly inFlight: () => number
} {
  const tracked = new Map<Socket, Tracked>()
  /** idle sockets, oldest idle first (Map keeps insertion order) */
  const idle = new Map<Socket, true>()
  const idleByClient = new Map<string, Map<Socket, true>>()
  const openByClient = new Map<string, number>()
  let answering = 0
  let evicted = 0
  let refused = 0
  let loggedAt = Number.NEGATIVE_INFINITY

  const setIdle = (socket: Socket, t: Tracked) => {
    idle.set(socket, true)
    let mine = idleByClient.get(t.address)
    if (!mine) {
      mine = new Map()
      idleByClient.set(t.address, mine)
    }
    mine.set(socket, true)
  }
  const setBusy = (socket: Socket, t: Tracked) => {
    idle.delete(socket)
    const mine = idleByClient.get(t.address)
    mine?.delete(socket)
    if (mine?.size === 0) idleByClient.delete(t.address)
  }
  const forget = (socket: Socket) => {
    const t = tracked.get(socket)
    if (!t) return
    tracked.delete(socket)
    setBusy(socket, t)
    const n = (openByClient.get(t.address) ?? 1) - 1
    if (n > 0) openByClient.set(t.address, n)
    else openByClient.delete(t.address)
  }
  const evictFrom = (pool: Map<Socket, true> | undefined): boolean => {
    const oldest = pool?.keys().next().value
    if (oldest === undefined) return false
    forget(oldest)
    oldest.destroy()
    evicted++
    return true
  }
  const report = () => {
    const t = now()
    if (t - loggedAt < LOG_EVERY_MS) return
    loggedAt = t
    logger.info('connection cap reached: idle connections closed', {
      open: tracked.size,
      maxConnections: limits.maxConnections,
      maxPerClient: limits.maxPerClient,
      evicted,
      refused,
    })
  }

  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown'
    let room = true
    if ((openByClient.get(address) ?? 0) >= limits.maxPerClient) {
      room = evictFrom(idleByClient.get(address))
    }
    if (room && tracked.size >= limits.maxConnections) {
      room = evictFrom(idle)
    }
    if (!room) {
      refused++
      report()
      socket.destroy()
      return
    }
    if (evicted > 0) report()
    const t: Tracked = { address, busy: 0 }
    tracked.set(socket, t)
    openByClient.set(address, (openByClient.get(address) ?? 0) + 1)
    setIdle(socket, t)
    socket.once('close', () => forget(socket))
  })
  server.on('request', (req, res) => {
    const socket = req.socket
    const t = tracked.get(socket)
    if (!t) return
    t.busy++
    answering++
    setBusy(socket, t)
    res.once('close', () => {
      t.busy--
      answering--
      // idle again, and now the newest idle
      if (t.busy === 0 && tracked.has(socket) && !socket.destroyed) {
        setIdle(socket, t)
      }
    })
  })
  return { open: () => tracked.size, inFlight: () => answering }
}
