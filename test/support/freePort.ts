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
