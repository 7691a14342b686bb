import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createRequestListener } from './createRequestListener.js'
import type { ServerDeps } from './serverDeps.js'

export interface StartHttpServerOptions {
  /** @default '127.0.0.1' */
  readonly host?: string
  /** 0 picks a free port @default 8080 */
  readonly port?: number
}

export interface RunningServer {
  readonly server: Server
  readonly url: string
  readonly port: number
  close(): Promise<void>
}

/** Listens and resolves once the port is bound. */
export async function startHttpServer(
  deps: ServerDeps,
  options: StartHttpServerOptions = {},
): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1'
  const server = createServer(createRequestListener(deps))
  server.keepAliveTimeout = 5_000
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
    close: async () => {
      await new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()))
        server.closeAllConnections()
      })
      await deps.requestLogs.flush()
    },
  }
}
