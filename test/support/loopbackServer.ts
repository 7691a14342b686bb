import {
  createServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http'
import type { AddressInfo } from 'node:net'

export interface LoopbackServer {
  readonly url: string
  /** requests seen, as `METHOD /path?query` */
  readonly seen: string[]
  close(): Promise<void>
}

/**
 * A node:http server on 127.0.0.1 and a free port, answering with
 * `handle`. `close` also cuts connections a handler left hanging, so no
 * socket outlives the test.
 */
export async function startLoopbackServer(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<LoopbackServer> {
  const seen: string[] = []
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`)
    handle(req, res)
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** Answers `body` as JSON with `status`. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
): void {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}
