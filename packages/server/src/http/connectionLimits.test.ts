import { createServer, type Server } from 'node:http'
import { type AddressInfo, connect, type Socket } from 'node:net'
import { afterEach, describe, expect, test } from 'vitest'
import { silentLogger } from '../logger.js'
import { defaultMaxConnections, limitConnections } from './connectionLimits.js'

const servers: Server[] = []
const sockets: Socket[] = []

afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy()
  for (const srv of servers.splice(0)) {
    srv.closeAllConnections()
    await new Promise((r) => srv.close(r))
  }
})

/** A server whose `/slow` answers only when `release()` is called. */
async function serve(maxConnections: number, maxPerClient: number) {
  const held: (() => void)[] = []
  const server = createServer((req, res) => {
    const end = () => res.end('{"ok":true}')
    if (req.url === '/slow') held.push(end)
    else end()
  })
  servers.push(server)
  const limits = limitConnections(
    server,
    { maxConnections, maxPerClient },
    silentLogger,
  )
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  return {
    port,
    limits,
    release: () => {
      for (const end of held.splice(0)) end()
    },
  }
}

/** A connected socket that records when the server closed it. */
async function open(port: number) {
  const socket = connect(port, '127.0.0.1')
  sockets.push(socket)
  const state = { closed: false, data: '' }
  socket.on('close', () => {
    state.closed = true
  })
  socket.on('data', (d) => {
    state.data += d.toString()
  })
  socket.on('error', () => {})
  await new Promise<void>((r) => socket.once('connect', () => r()))
  // the server has seen it once it answers a no-op round trip; a short
  // wait is enough on loopback for the 'connection' event to run
  await new Promise((r) => setTimeout(r, 20))
  return { socket, state }
}

const get = (socket: Socket, path: string) =>
  socket.write(`GET ${path} HTTP/1.1\r\nhost: x\r\n\r\n`)

const settle = () => new Promise((r) => setTimeout(r, 50))

describe('limitConnections', () => {
  test('default: half the open-file limit, at least 64, at most 8,192', () => {
    const limits = (soft: string) =>
      `Limit                     Soft Limit           Hard Limit           Units\nMax open files            ${soft}                20000                files\n`
    expect(defaultMaxConnections(limits('20000'))).toBe(8_192)
    expect(defaultMaxConnections(limits('1024'))).toBe(512)
    expect(defaultMaxConnections(limits('100'))).toBe(64)
    expect(defaultMaxConnections(limits('unlimited'))).toBe(8_192)
    expect(defaultMaxConnections('')).toBe(8_192)
  })

  test('behavior: over the per-client cap the oldest idle connection is closed for the new one', async () => {
    const { port, limits } = await serve(100, 3)
    const a = await open(port)
    const b = await open(port)
    const c = await open(port)
    expect(limits.open()).toBe(3)
    const d = await open(port)
    await settle()
    expect([a, b, c, d].map((x) => x.state.closed)).toEqual([
      true,
      false,
      false,
      false,
    ])
    get(d.socket, '/health')
    await settle()
    expect(d.state.data).toMatch(/^HTTP\/1.1 200/)
    expect(limits.open()).toBe(3)
  })

  test('behavior: a kept-alive connection that just answered is the newest idle', async () => {
    const { port } = await serve(100, 2)
    const a = await open(port)
    const b = await open(port)
    // a answers a request: now b is the oldest idle
    get(a.socket, '/health')
    await settle()
    expect(a.state.data).toMatch(/200/)
    const c = await open(port)
    await settle()
    expect([a, b, c].map((x) => x.state.closed)).toEqual([false, true, false])
  })

  test('behavior: a connection with a request in flight is never closed; with none idle the newcomer is', async () => {
    const { port, release } = await serve(2, 100)
    const a = await open(port)
    const b = await open(port)
    get(a.socket, '/slow')
    get(b.socket, '/slow')
    await settle()
    const c = await open(port)
    await settle()
    expect([a, b, c].map((x) => x.state.closed)).toEqual([false, false, true])
    release()
    await settle()
    expect(a.state.data).toMatch(/^HTTP\/1.1 200/)
    expect(b.state.data).toMatch(/^HTTP\/1.1 200/)
    // both idle again: the next newcomer takes the older one's place
    const d = await open(port)
    await settle()
    expect([a, b, d].map((x) => x.state.closed)).toEqual([true, false, false])
  })

  test('behavior: the total cap counts every client together', async () => {
    const { port, limits } = await serve(2, 100)
    const a = await open(port)
    await open(port)
    await open(port)
    await settle()
    expect(a.state.closed).toBe(true)
    expect(limits.open()).toBe(2)
  })
})
