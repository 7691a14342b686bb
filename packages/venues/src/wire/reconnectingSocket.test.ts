import { createServer } from 'node:http'
import { type AddressInfo, createServer as createNetServer } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { WebSocketServer, type WebSocket as WsSocket } from 'ws'
import {
  openReconnectingSocket,
  type ReconnectingSocket,
  type SocketState,
} from './reconnectingSocket.js'

const server = createServer()
const wss = new WebSocketServer({ server })
const sockets: WsSocket[] = []
const received: string[] = []
let connections = 0
/** when false, the server accepts and then stays silent */
let talk = true
let url = ''

beforeAll(async () => {
  wss.on('connection', (ws) => {
    connections++
    sockets.push(ws)
    ws.on('message', (m) => {
      received.push(String(m))
      if (talk) ws.send(`echo ${String(m)}`)
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  for (const s of sockets) s.terminate()
  await new Promise((r) => wss.close(r))
  await new Promise((r) => server.close(r))
})

const until = async (ok: () => boolean, ms = 3_000) => {
  const end = Date.now() + ms
  while (!ok()) {
    if (Date.now() > end) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 10))
  }
}

describe('openReconnectingSocket', () => {
  let socket: ReconnectingSocket | undefined
  afterAll(() => socket?.close())

  test('behavior: subscribes on open, reconnects after a drop and subscribes again; close stops it', async () => {
    const messages: string[] = []
    const states: SocketState[] = []
    const before = connections
    socket = openReconnectingSocket({
      url,
      minDelayMs: 20,
      onOpen: (send) => send('subscribe'),
      onMessage: (t) => messages.push(t),
      onState: (s) => states.push(s),
    })
    await until(() => messages.includes('echo subscribe'))
    expect(socket.state()).toBe('open')
    for (const s of sockets) s.terminate()
    await until(() => connections === before + 2 && messages.length >= 2)
    expect(messages.filter((m) => m === 'echo subscribe')).toHaveLength(2)
    expect(states).toContain('connecting')
    socket.close()
    expect(socket.state()).toBe('closed')
    const after = connections
    for (const s of sockets) s.terminate()
    await new Promise((r) => setTimeout(r, 100))
    expect(connections).toBe(after)
  })

  test('behavior: a connection silent for longer than silentMs is dropped and opened again', async () => {
    talk = false
    const before = connections
    const s = openReconnectingSocket({
      url,
      minDelayMs: 20,
      silentMs: 100,
      onOpen: (send) => send('hello'),
      onMessage: () => {},
    })
    try {
      await until(() => connections >= before + 2)
    } finally {
      s.close()
      talk = true
    }
  })

  test('behavior: a venue that keeps failing is retried with a doubling delay', async () => {
    // accepts TCP and hangs up at once: every attempt fails
    let attempts = 0
    const refusing = createNetServer((c) => {
      attempts++
      c.destroy()
    })
    await new Promise<void>((r) => refusing.listen(0, '127.0.0.1', r))
    const port = (refusing.address() as AddressInfo).port
    const s = openReconnectingSocket({
      url: `ws://127.0.0.1:${port}`,
      minDelayMs: 10,
      maxDelayMs: 80,
      onOpen: () => {},
      onMessage: () => {},
    })
    await new Promise((r) => setTimeout(r, 500))
    s.close()
    const seen = attempts
    // a connect already on its way when close() ran may still reach the
    // server (a busy machine delays its accept): one at most
    await new Promise((r) => setTimeout(r, 150))
    const settled = attempts
    await new Promise((r) => setTimeout(r, 300))
    await new Promise((r) => refusing.close(r))
    // 10, 20, 40, 80, 80, … ms apart: a handful in 500 ms, not hundreds
    expect(seen).toBeGreaterThanOrEqual(4)
    expect(seen).toBeLessThanOrEqual(10)
    expect(settled - seen).toBeLessThanOrEqual(1)
    // and none once closed
    expect(attempts).toBe(settled)
  })
})
