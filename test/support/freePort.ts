import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A loopback port free right now, for a process that must be told one. */
export async function freePort(): Promise<number> {
  const s = createServer()
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r))
  const { port } = s.address() as AddressInfo
  await new Promise((r) => s.close(r))
  return port
}

const listens = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = createServer()
    s.once('error', () => resolve(false))
    s.listen({ port, host: '127.0.0.1', exclusive: true }, () =>
      s.close(() => resolve(true)),
    )
  })

/** `count` loopback ports in a row, all free right now (e.g. `--venue-ports`). */
export async function freePortRun(count: number): Promise<number> {
  for (let tries = 0; tries < 50; tries++) {
    const first = await freePort()
    if (first + count > 65_536) continue
    let free = true
    for (let p = first + 1; p < first + count && free; p++) {
      free = await listens(p)
    }
    if (free) return first
  }
  throw new Error(`no ${count} free loopback ports in a row`)
}
