import {
  createTransport,
  DnApiError,
  DnError,
  DnNetworkError,
  DnProtocolError,
} from '@dn/client'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { freePort } from './support/freePort.js'
import {
  type LoopbackServer,
  sendJson,
  startLoopbackServer,
} from './support/loopbackServer.js'

const fast = { retryCount: 1, retryDelay: 1 }

/** Runs `p`, which must reject, and returns what it threw. */
async function thrown(p: Promise<unknown>): Promise<unknown> {
  try {
    await p
  } catch (err) {
    return err
  }
  throw new Error('expected a rejection')
}

describe('client transport failures', () => {
  const servers: LoopbackServer[] = []
  let html: LoopbackServer
  let silent: LoopbackServer
  let cut: LoopbackServer
  let api: LoopbackServer
  beforeAll(async () => {
    html = await startLoopbackServer((req, res) => {
      res.writeHead(req.url === '/busy' ? 503 : 502, {
        'content-type': 'text/html',
      })
      res.end('<html><body>Bad Gateway from the proxy</body></html>')
    })
    silent = await startLoopbackServer(() => {})
    cut = await startLoopbackServer((req) => req.socket.destroy())
    api = await startLoopbackServer((req, res) => {
      if (req.url === '/garbage') {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end('{"tasks": [')
        return
      }
      res.setHeader('x-request-id', 'req-1')
      sendJson(res, 404, { code: 'task_not_found', error: 'no such task' })
    })
    servers.push(html, silent, cut, api)
  })
  afterAll(() => Promise.all(servers.map((s) => s.close())))

  test('error: a refused port is a DnNetworkError, reason refused, after retries', async () => {
    const baseUrl = `http://127.0.0.1:${await freePort()}`
    const err = await thrown(
      createTransport({ baseUrl, ...fast })('GET', '/health'),
    )
    expect(err).toBeInstanceOf(DnNetworkError)
    expect(err).toBeInstanceOf(DnError)
    const e = err as DnNetworkError
    expect({ code: e.code, reason: e.reason, method: e.method }).toEqual({
      code: 'network_error',
      reason: 'refused',
      method: 'GET',
    })
    expect(e.url).toBe(`${baseUrl}/health`)
    expect(e.cause).toBeInstanceOf(TypeError)
    expect(e.message).toBe(`GET ${baseUrl}/health failed: refused`)
  })

  test('error: a server that never answers is a timeout', async () => {
    const err = await thrown(
      createTransport({ baseUrl: silent.url, ...fast, timeout: 100 })(
        'POST',
        '/v1/perp/orders',
        { body: {} },
      ),
    )
    expect(err).toBeInstanceOf(DnNetworkError)
    expect((err as DnNetworkError).reason).toBe('timeout')
    expect((err as DnNetworkError).method).toBe('POST')
    // the key every attempt carried, to send the command again with
    expect((err as DnNetworkError).idempotencyKey).toMatch(/^[0-9a-f-]{36}$/)
    // one try and one retry
    expect(silent.seen).toEqual([
      'POST /v1/perp/orders',
      'POST /v1/perp/orders',
    ])
  })

  test('error: a connection cut before the answer is a reset', async () => {
    const err = await thrown(
      createTransport({ baseUrl: cut.url, ...fast })('GET', '/health'),
    )
    expect(err).toBeInstanceOf(DnNetworkError)
    expect((err as DnNetworkError).reason).toBe('reset')
  })

  test('error: credentials in the base URL never reach the error', async () => {
    const port = await freePort()
    const err = (await thrown(
      createTransport({
        baseUrl: `http://user:secret@127.0.0.1:${port}`,
        retryCount: 0,
      })('GET', '/health'),
    )) as DnNetworkError
    expect(err.url).toBe(`http://127.0.0.1:${port}/health`)
    expect(err.message).not.toContain('secret')
  })

  test('behavior: the caller aborting is not a network error', async () => {
    const controller = new AbortController()
    const p = createTransport({ baseUrl: silent.url, ...fast })(
      'GET',
      '/health',
      { signal: controller.signal },
    )
    controller.abort()
    const err = await thrown(p)
    expect(err).not.toBeInstanceOf(DnError)
    expect((err as Error).name).toBe('AbortError')
  })

  test('error: an HTML page from a proxy is a DnProtocolError', async () => {
    const err = await thrown(
      createTransport({ baseUrl: html.url, ...fast })('GET', '/health'),
    )
    expect(err).toBeInstanceOf(DnProtocolError)
    expect(err).toBeInstanceOf(DnError)
    const e = err as DnProtocolError
    expect({
      code: e.code,
      status: e.status,
      contentType: e.contentType,
    }).toEqual({
      code: 'protocol_error',
      status: 502,
      contentType: 'text/html',
    })
    expect(e.bodySnippet).toBe(
      '<html><body>Bad Gateway from the proxy</body></html>',
    )
    expect(e.cause).toBeInstanceOf(SyntaxError)
  })

  test('behavior: a proxy 503 page is retried before it becomes a protocol error', async () => {
    const before = html.seen.length
    const err = await thrown(
      createTransport({ baseUrl: html.url, ...fast })('GET', '/busy'),
    )
    expect((err as DnProtocolError).status).toBe(503)
    expect(html.seen.length - before).toBe(2)
  })

  test('error: a truncated JSON answer is a protocol error, not a SyntaxError', async () => {
    const err = await thrown(
      createTransport({ baseUrl: api.url, ...fast })('GET', '/garbage'),
    )
    expect(err).toBeInstanceOf(DnProtocolError)
    expect((err as DnProtocolError).bodySnippet).toBe('{"tasks": [')
  })

  test('error: a service error keeps status, code and request id', async () => {
    const err = await thrown(
      createTransport({ baseUrl: api.url, ...fast })('GET', '/v1/x'),
    )
    expect(err).toBeInstanceOf(DnApiError)
    expect(err).toBeInstanceOf(DnError)
    const e = err as DnApiError
    expect({ status: e.status, code: e.code, requestId: e.requestId }).toEqual({
      status: 404,
      code: 'task_not_found',
      requestId: 'req-1',
    })
  })
})
