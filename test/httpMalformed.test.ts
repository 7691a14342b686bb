import { connect } from 'node:net'
import { startHttpServer } from '@dn/server'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestService, type TestService } from './support/testService.js'

/** Writes raw bytes and collects everything until the server closes. */
function raw(url: string, bytes: string | Buffer): Promise<string> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(bytes))
    let got = ''
    socket.setEncoding('utf8')
    socket.on('data', (d: string) => {
      got += d
    })
    socket.on('end', () => resolve(got))
    socket.on('close', () => resolve(got))
    socket.on('error', reject)
    socket.setTimeout(5_000, () => {
      socket.destroy()
      reject(new Error(`no close after: ${got}`))
    })
  })
}

/** The status line's code and the JSON body of a raw answer. */
function parse(answer: string) {
  const [head = '', body = ''] = answer.split('\r\n\r\n')
  const status = Number(head.split(' ')[1])
  return { status, head: head.toLowerCase(), body: JSON.parse(body) as unknown }
}

/**
 * What Node's HTTP parser refuses before a route sees it is answered with
 * our `{error, code}` JSON, and the connection closed.
 */
describe('malformed HTTP over raw sockets', () => {
  let svc: TestService
  const logged: { level: string; msg: string; fields?: unknown }[] = []
  beforeAll(async () => {
    svc = await startTestService({
      logger: {
        info: (msg, fields) => logged.push({ level: 'info', msg, fields }),
        error: (msg, fields) => logged.push({ level: 'error', msg, fields }),
        debug: (msg, fields) => logged.push({ level: 'debug', msg, fields }),
      },
    })
  })
  afterAll(() => svc?.close())

  const cases: [string, string | Buffer, number, string][] = [
    [
      'a non-numeric Content-Length',
      'POST /v1/perp/orders HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n{}',
      400,
      'bad_request',
    ],
    [
      'Content-Length with Transfer-Encoding',
      'POST /v1/perp/orders HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      400,
      'bad_request',
    ],
    [
      'a bad chunk size',
      'POST /v1/perp/orders HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
      400,
      'bad_request',
    ],
    [
      'a NUL byte in a header',
      Buffer.from(
        'GET /health HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\n\r\n',
        'latin1',
      ),
      400,
      'bad_request',
    ],
    [
      'headers over 16 KB',
      `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      431,
      'headers_too_large',
    ],
    [
      'CONNECT',
      'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n',
      405,
      'method_not_allowed',
    ],
    ['garbage', 'HELLO THERE\r\n\r\n', 400, 'bad_request'],
  ]

  test.each(cases)(
    '%s: JSON {error, code}, connection closed',
    async (_n, bytes, status, code) => {
      const answer = parse(await raw(svc.url, bytes))
      expect(answer.status).toBe(status)
      expect(answer.head).toContain('content-type: application/json')
      expect(answer.head).toContain('connection: close')
      expect(answer.body).toMatchObject({ code, error: expect.any(String) })
    },
  )

  test('an upload the client abandons is one debug line, not an error with a stack', async () => {
    const { hostname, port } = new URL(svc.url)
    const before = logged.length
    await new Promise<void>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => {
        socket.write(
          'POST /v1/venue-bindings/prepare HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"owner":',
        )
        setTimeout(() => socket.destroy(), 50)
      })
      socket.on('close', () => resolve())
      socket.on('error', reject)
    })
    await new Promise((r) => setTimeout(r, 200))
    const lines = logged.slice(before)
    expect(lines.filter((l) => l.level === 'error')).toEqual([])
    expect(lines.filter((l) => l.level === 'debug')).toHaveLength(1)
  })

  test('the server still answers after all of them', async () => {
    const res = await fetch(`${svc.url}/health`)
    expect(await res.json()).toEqual({ ok: true })
  })
})

describe('idle connections', () => {
  test('a connection that sends nothing is closed after the idle timeout', async () => {
    const svc = await startTestService()
    const server = await startHttpServer(svc.deps, {
      port: 0,
      idleTimeoutMs: 300,
    })
    try {
      const { hostname, port } = new URL(server.url)
      const opened = Date.now()
      const closedAfter = await new Promise<number>((resolve, reject) => {
        const socket = connect(Number(port), hostname)
        socket.on('close', () => resolve(Date.now() - opened))
        socket.on('error', reject)
      })
      expect(closedAfter).toBeGreaterThanOrEqual(250)
      expect(closedAfter).toBeLessThan(3_000)
    } finally {
      await server.close()
      await svc.close()
    }
  })
})
