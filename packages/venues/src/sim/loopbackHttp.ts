import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A listening local server: where it is and how to stop it. */
interface Listening {
  readonly url: string
  close(): Promise<void>
}

/**
 * Starts `server` on `host:port` (port 0 picks a free one) and resolves
 * once it listens; closing also drops kept-alive connections, so a test's
 * `afterAll` never waits on a client's idle socket.
 */
export async function listen(
  server: Server,
  host = '127.0.0.1',
  port = 0,
): Promise<Listening> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { address, port: bound } = server.address() as AddressInfo
  const shown = address.includes(':') ? `[${address}]` : address
  return {
    url: `http://${shown}:${bound}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections()
        server.close((e) => (e ? reject(e) : resolve()))
      }),
  }
}

/**
 * The request body as UTF-8, at most `maxBytes`; a larger body rejects
 * with `tooLarge()` (each venue words it its own way) and is cut off.
 */
export function readBody(
  req: IncomingMessage,
  maxBytes: number,
  tooLarge: () => Error,
): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => {
      size += c.length
      if (size > maxBytes) {
        reject(tooLarge())
        req.destroy()
        return
      }
      chunks.push(c)
    })
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

/** A JSON answer. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
): void {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}

/**
 * Dates the answer by the fake venue's own clock (`now`), not the
 * machine's that node would use: a client reads the venue's clock off it
 * (`wire/venueClock.ts`), and compares it with deadlines that clock
 * enforces. Stamped as the request arrives, so it never runs ahead of
 * what the answer shows.
 */
export function dateByVenueClock(res: ServerResponse, now: () => number): void {
  res.setHeader('date', new Date(now()).toUTCString())
}
