import { Agent, fetch as undiciFetch } from 'undici'
import { afterEach, describe, expect, test } from 'vitest'
import { failedBeforeSending } from './fetchFailure.js'
import {
  closedPort,
  type FaultServer,
  startFaultPeer,
  startKeepAliveServer,
} from './testing/loopbackFaults.js'

/**
 * Each proof (and each non-proof) as seen against a real loopback server,
 * with Node's own fetch (its bundled undici) and npm undici's: the errors
 * `failedBeforeSending` reads are theirs, not made up.
 */
type Fetch = typeof globalThis.fetch
const FETCHES: [string, Fetch][] = [
  [`node fetch (undici ${process.versions.undici})`, globalThis.fetch],
  ['npm undici fetch', undiciFetch as unknown as Fetch],
]

const POST = {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: '{"action":"order"}',
}

let servers: FaultServer[] = []
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()))
  servers = []
})
const serve = (s: FaultServer) => {
  servers.push(s)
  return s
}

type Failure = Error & { cause?: Record<string, unknown> }

/** The error a fetch fails with (it must fail). */
async function failure(
  fetchFn: Fetch,
  url: string,
  init: RequestInit = {},
): Promise<Failure> {
  return failed(url, fetchFn(url, { ...POST, ...init }))
}

async function failed(url: string, answer: Promise<unknown>): Promise<Failure> {
  const err = await answer.then(
    () => undefined,
    (e: unknown) => e as Failure,
  )
  if (!err) throw new Error(`${url} answered`)
  return err
}

describe.each(FETCHES)('failedBeforeSending with %s', (_name, fetchFn) => {
  test('proof: a refused connection (syscall connect)', async () => {
    const err = await failure(
      fetchFn,
      `http://127.0.0.1:${await closedPort()}/`,
    )
    expect(err.cause).toMatchObject({
      code: 'ECONNREFUSED',
      syscall: 'connect',
    })
    expect(failedBeforeSending(err)).toBe(true)
  })

  test('proof: the peer resets the connection as it accepts it (connect ECONNRESET)', async () => {
    const peer = serve(await startFaultPeer('reset'))
    for (const scheme of ['http', 'https']) {
      const err = await failure(fetchFn, `${scheme}://127.0.0.1:${peer.port}/`)
      expect(err.cause).toMatchObject({
        code: 'ECONNRESET',
        syscall: 'connect',
      })
      expect(failedBeforeSending(err)).toBe(true)
    }
  })

  test('proof: the peer closes during the TLS handshake', async () => {
    const peer = serve(await startFaultPeer('fin'))
    const err = await failure(fetchFn, `https://127.0.0.1:${peer.port}/`)
    expect(err.cause).toMatchObject({
      code: 'ECONNRESET',
      message:
        'Client network socket disconnected before secure TLS connection was established',
    })
    expect(err.cause?.syscall).toBeUndefined()
    expect(failedBeforeSending(err)).toBe(true)
  })

  test('proof: a name that does not resolve (syscall getaddrinfo)', async () => {
    const err = await failure(fetchFn, 'http://dn-venue.invalid/')
    expect(err.cause).toMatchObject({ syscall: 'getaddrinfo' })
    expect(['ENOTFOUND', 'EAI_AGAIN']).toContain(err.cause?.code)
    expect(failedBeforeSending(err)).toBe(true)
  })

  test('proof: a URL that does not parse', async () => {
    const err = await failure(fetchFn, 'venue without a scheme')
    expect(err.cause).toMatchObject({ code: 'ERR_INVALID_URL' })
    expect(failedBeforeSending(err)).toBe(true)
  })

  test('not proof: the peer closes after reading the request (other side closed)', async () => {
    const peer = serve(await startFaultPeer('finOnData'))
    const err = await failure(fetchFn, `http://127.0.0.1:${peer.port}/`)
    expect(err.cause).toMatchObject({
      code: 'UND_ERR_SOCKET',
      message: 'other side closed',
    })
    expect(peer.received()).toBeGreaterThan(0)
    expect(failedBeforeSending(err)).toBe(false)
  })

  test('not proof: the peer resets after reading the request (read ECONNRESET)', async () => {
    const peer = serve(await startFaultPeer('resetOnData'))
    const err = await failure(fetchFn, `http://127.0.0.1:${peer.port}/`)
    expect(err.cause).toMatchObject({ code: 'ECONNRESET', syscall: 'read' })
    expect(failedBeforeSending(err)).toBe(false)
  })

  test('not proof: bytesWritten counts every request of a kept-alive socket', async () => {
    const server = serve(await startKeepAliveServer('close'))
    const url = `http://127.0.0.1:${server.port}/`
    const first = await fetchFn(url, POST)
    expect(await first.text()).toBe('ok')
    // let the socket go back to the pool before the next request
    await new Promise((r) => setTimeout(r, 50))
    const err = await failure(fetchFn, url)
    const socket = err.cause?.socket as {
      bytesWritten: number
      bytesRead: number
    }
    expect(err.cause).toMatchObject({ code: 'UND_ERR_SOCKET' })
    expect(server.accepted()).toBe(1)
    // the first answer was read on it: nonzero counts are not this request's
    expect(socket.bytesRead).toBeGreaterThan(0)
    expect(failedBeforeSending(err)).toBe(false)
  })

  test('not proof: our timeout after the request was written', async () => {
    const peer = serve(await startFaultPeer('silent'))
    const err = await failure(fetchFn, `http://127.0.0.1:${peer.port}/`, {
      signal: AbortSignal.timeout(150),
    })
    expect(err.name).toBe('TimeoutError')
    expect(peer.received()).toBeGreaterThan(0)
    expect(failedBeforeSending(err)).toBe(false)
  })
})

describe('failedBeforeSending with npm undici dispatcher options', () => {
  test("proof: undici's connect timeout (a TLS handshake that stalls)", async () => {
    const peer = serve(await startFaultPeer('silent'))
    const dispatcher = new Agent({ connect: { timeout: 100 } })
    const url = `https://127.0.0.1:${peer.port}/`
    const err = await failed(url, undiciFetch(url, { ...POST, dispatcher }))
    await dispatcher.close()
    expect(err.cause).toMatchObject({ code: 'UND_ERR_CONNECT_TIMEOUT' })
    expect(failedBeforeSending(err)).toBe(true)
  })

  test('proof: every address tried refused (AggregateError)', async () => {
    const port = await closedPort()
    const dispatcher = new Agent({
      connect: {
        autoSelectFamily: true,
        lookup: (_host, opts, cb) => {
          const all = [
            { address: '127.0.0.1', family: 4 },
            { address: '127.0.0.2', family: 4 },
          ]
          if ((opts as { all?: boolean }).all) cb(null, all as never, 4)
          else cb(null, '127.0.0.1', 4)
        },
      },
    })
    const url = `http://venue.test:${port}/`
    const err = await failed(url, undiciFetch(url, { ...POST, dispatcher }))
    await dispatcher.close()
    expect(err.cause?.name).toBe('AggregateError')
    expect(err.cause?.errors).toEqual([
      expect.objectContaining({ code: 'ECONNREFUSED', syscall: 'connect' }),
      expect.objectContaining({ code: 'ECONNREFUSED', syscall: 'connect' }),
    ])
    expect(failedBeforeSending(err)).toBe(true)
  })
})

describe('failedBeforeSending on error shapes', () => {
  const fetchFailed = (cause: object) =>
    Object.assign(new TypeError('fetch failed'), { cause })
  test('edge: a connect failure of any code counts, the same code after connecting does not', () => {
    const e = (code: string, syscall: string) =>
      fetchFailed(Object.assign(new Error(code), { code, syscall }))
    expect(failedBeforeSending(e('EHOSTUNREACH', 'connect'))).toBe(true)
    expect(failedBeforeSending(e('ETIMEDOUT', 'connect'))).toBe(true)
    expect(failedBeforeSending(e('EHOSTUNREACH', 'write'))).toBe(false)
    expect(failedBeforeSending(e('ETIMEDOUT', 'read'))).toBe(false)
    expect(failedBeforeSending(e('EPIPE', 'write'))).toBe(false)
  })
  test('edge: one address that connected and failed later spoils the aggregate', () => {
    const agg = Object.assign(
      new AggregateError([
        Object.assign(new Error(), {
          code: 'ECONNREFUSED',
          syscall: 'connect',
        }),
        Object.assign(new Error(), { code: 'ECONNRESET', syscall: 'read' }),
      ]),
      { code: 'ECONNREFUSED' },
    )
    expect(failedBeforeSending(fetchFailed(agg))).toBe(false)
  })
  test('edge: our timeout and errors without a code prove nothing', () => {
    expect(
      failedBeforeSending(new DOMException('timed out', 'TimeoutError')),
    ).toBe(false)
    expect(failedBeforeSending(new TypeError('fetch failed'))).toBe(false)
    expect(failedBeforeSending(null)).toBe(false)
  })
})
