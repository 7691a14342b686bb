import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createRequestListener } from './createRequestListener.js'
import { answerClientErrors } from './http/clientErrors.js'
import {
  DEFAULT_MAX_PER_CLIENT,
  defaultMaxConnections,
  limitConnections,
} from './http/connectionLimits.js'
import type { ServerDeps } from './serverDeps.js'

export interface StartHttpServerOptions {
  /** @default '127.0.0.1' */
  readonly host?: string
  /** 0 picks a free port @default 8080 */
  readonly port?: number
  /** @default HTTP_IDLE_TIMEOUT_MS */
  readonly idleTimeoutMs?: number
  /**
   * open connections kept, all clients together; over it the oldest idle
   * one is closed @default half the open-file limit, at most 8,192
   */
  readonly maxConnections?: number | undefined
  /** open connections kept per client address @default 1,024 */
  readonly maxConnectionsPerClient?: number | undefined
}

export interface RunningServer {
  readonly server: Server
  readonly url: string
  readonly port: number
  /**
   * Accepts no more connections, closes the idle ones, lets requests in
   * flight be answered within `deadlineMs` (their connections closed as
   * they finish), then cuts what is left.
   */
  close(deadlineMs?: number): Promise<ServerCloseReport>
}

export interface ServerCloseReport {
  /** requests still unanswered at the deadline, cut */
  readonly cut: number
}

/** How long a closing server waits for the requests in flight. */
const HTTP_CLOSE_DEADLINE_MS = 10_000

/** A connection silent this long is closed. */
const HTTP_IDLE_TIMEOUT_MS = 60_000
/** A request's headers must arrive within this. */
const HTTP_HEADERS_TIMEOUT_MS = 10_000
/** A whole request (headers and body) must arrive within this. */
const HTTP_REQUEST_TIMEOUT_MS = 60_000

/** Listens and resolves once the port is bound. */
export async function startHttpServer(
  deps: ServerDeps,
  options: StartHttpServerOptions = {},
): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1'
  const server = createServer(createRequestListener(deps))
  // a kept-alive connection with no next request is closed after 5 s; one
  // that sends nothing at all after HTTP_IDLE_TIMEOUT_MS; a request whose
  // headers or whole body take longer than these is answered 408
  server.keepAliveTimeout = 5_000
  server.timeout = options.idleTimeoutMs ?? HTTP_IDLE_TIMEOUT_MS
  server.headersTimeout = HTTP_HEADERS_TIMEOUT_MS
  server.requestTimeout = HTTP_REQUEST_TIMEOUT_MS
  answerClientErrors(server, deps.logger)
  const connections = limitConnections(
    server,
    {
      maxConnections: options.maxConnections ?? defaultMaxConnections(),
      maxPerClient: options.maxConnectionsPerClient ?? DEFAULT_MAX_PER_CLIENT,
    },
    deps.logger,
  )
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 8080, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { port } = server.address() as AddressInfo
  return {
    server,
    port,
    url: `http://${host}:${port}`,
    close: async (deadlineMs = HTTP_CLOSE_DEADLINE_MS) => {
      const closed = new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()))
      })
      // a kept-alive connection goes idle once its answer is sent
      server.closeIdleConnections()
      const idle = setInterval(() => server.closeIdleConnections(), 25)
      let timer: ReturnType<typeof setTimeout> | undefined
      const inTime = await Promise.race([
        closed.then(() => true),
        new Promise<false>((resolve) => {
          timer = setTimeout(() => resolve(false), deadlineMs)
        }),
      ])
      clearInterval(idle)
      clearTimeout(timer)
      let cut = 0
      if (!inTime) {
        cut = connections.inFlight()
        server.closeAllConnections()
        await closed
      }
      await deps.requestLogs.flush()
      return { cut }
    },
  }
}
