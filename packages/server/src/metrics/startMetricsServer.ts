import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { DnMetrics } from './createDnMetrics.js'
import { metricsAuthorized } from './metricsAuthorized.js'

export interface StartMetricsServerOptions {
  readonly metrics: DnMetrics
  /** @default '127.0.0.1' */
  readonly host?: string | undefined
  /** 0 picks a free port */
  readonly port: number
  /** bearer token a scrape must present (DN_METRICS_TOKEN) @default open */
  readonly token?: string | undefined
}

export interface RunningMetricsServer {
  readonly url: string
  readonly port: number
  close(): Promise<void>
}

/**
 * `GET /metrics` alone on its own port: how a `dn worker`, which serves no
 * API, is scraped. Anything else is 404.
 */
export async function startMetricsServer(
  o: StartMetricsServerOptions,
): Promise<RunningMetricsServer> {
  const host = o.host ?? '127.0.0.1'
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0]
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n')
      return
    }
    if (!metricsAuthorized(req.headers.authorization, o.token)) {
      res
        .writeHead(401, { 'content-type': 'text/plain' })
        .end('metrics need Authorization: Bearer <DN_METRICS_TOKEN>\n')
      return
    }
    o.metrics.render().then(
      ({ contentType, text }) =>
        res.writeHead(200, { 'content-type': contentType }).end(text),
      (err: unknown) =>
        res
          .writeHead(503, { 'content-type': 'text/plain' })
          .end(
            `metrics unavailable: ${err instanceof Error ? err.message : String(err)}\n`,
          ),
    )
  })
  // a scrape connection is kept alive between scrapes; close() cuts it
  server.keepAliveTimeout = 5_000
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(o.port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://${host}:${port}/metrics`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()))
        server.closeAllConnections()
      }),
  }
}
