import { Agent, fetch as undiciFetch } from 'undici'
import { afterEach, describe, expect, test } from 'vitest'
import { failedBeforeSending } from './fetchFailure.js'
import { watchRequestWrites } from './requestWrites.js'
import {
  closedPort,
  type FaultServer,
  type PeerFault,
  startFaultPeer,
} from './testing/loopbackFaults.js'

/**
 * What undici's own diagnostics prove about a failed fetch, against real
 * loopback servers, with Node's fetch (its bundled undici) and npm
 * undici's.
 */
type Fetch = typeof globalThis.fetch
const FETCHES: [string, Fetch][] = [
  [`node fetch (undici ${process.versions.undici})`, globalThis.fetch],
  ['npm undici fetch', undiciFetch as unknown as Fetch],
]
const POST = { method: 'POST', body: '{"action":"order"}' }

let servers: FaultServer[] = []
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()))
  servers = []
})
const peer = async (fault: PeerFault) => {
  const s = await startFaultPeer(fault)
  servers.push(s)
  return s
}

/** Runs one watched fetch that must fail: its error and the watch. */
function watched(fetchFn: Fetch, url: string, init: RequestInit = {}) {
  return watchedRun(url, () => fetchFn(url, { ...POST, ...init }))
}

async function watchedRun(url: string, send: () => Promise<unknown>) {
  const writes = watchRequestWrites()
  const err = await writes.run(send).then(
    () => undefined,
    (e: unknown) => e as Error & { cause?: unknown },
  )
  if (!err) throw new Error(`${url} answered`)
  return { err, writes }
}

describe.each(FETCHES)('watchRequestWrites with %s', (_name, fetchFn) => {
  test('proof: a reset during the TLS handshake, after our ClientHello', async () => {
    const p = await peer('resetOnData')
    const { err, writes } = await watched(
      fetchFn,
      `https://127.0.0.1:${p.port}/`,
    )
    // the same `read ECONNRESET` as a reset after a written request
    expect(err.cause).toMatchObject({ code: 'ECONNRESET', syscall: 'read' })
    expect(failedBeforeSending(err)).toBe(false)
    expect(writes.noneWritten()).toBe(true)
  })

  test('proof: our timeout while the TLS handshake stalls', async () => {
    const p = await peer('silent')
    const { err, writes } = await watched(
      fetchFn,
      `https://127.0.0.1:${p.port}/`,
      { signal: AbortSignal.timeout(150) },
    )
    expect(err.name).toBe('TimeoutError')
    expect(writes.noneWritten()).toBe(true)
  })

  test('proof: a refused connection', async () => {
    const { writes } = await watched(
      fetchFn,
      `http://127.0.0.1:${await closedPort()}/`,
    )
    expect(writes.noneWritten()).toBe(true)
  })

  test('not proof: our timeout after the request was written', async () => {
    const p = await peer('silent')
    const { err, writes } = await watched(
      fetchFn,
      `http://127.0.0.1:${p.port}/`,
      { signal: AbortSignal.timeout(150) },
    )
    expect(err.name).toBe('TimeoutError')
    expect(p.received()).toBeGreaterThan(0)
    expect(writes.noneWritten()).toBe(false)
  })

  test('not proof: the peer closes after reading the request', async () => {
    const p = await peer('finOnData')
    const { writes } = await watched(fetchFn, `http://127.0.0.1:${p.port}/`)
    expect(writes.noneWritten()).toBe(false)
  })

  test('soundness: whatever a racing peer does, "not sent" by the error implies undici wrote nothing', async () => {
    const faults: PeerFault[] = ['reset', 'fin', 'resetOnData', 'finOnData']
    for (const scheme of ['http', 'https']) {
      for (const fault of faults) {
        const p = await peer(fault)
        for (let round = 0; round < 5; round++) {
          const { err, writes } = await watched(
            fetchFn,
            `${scheme}://127.0.0.1:${p.port}/`,
          )
          if (failedBeforeSending(err)) {
            expect(writes.noneWritten(), `${scheme} ${fault}`).toBe(true)
          }
        }
      }
    }
  })
})

describe('watchRequestWrites edges', () => {
  test('proof: our timeout while waiting for the pool; the request is never written later', async () => {
    const p = await peer('silent')
    const dispatcher = new Agent({ connections: 1 })
    const url = `http://127.0.0.1:${p.port}/`
    const first = watchRequestWrites()
    const holding = first
      .run(() =>
        undiciFetch(url, {
          ...POST,
          dispatcher,
          signal: AbortSignal.timeout(400),
        }),
      )
      .catch((e: unknown) => e)
    await new Promise((r) => setTimeout(r, 50))
    const { err, writes } = await watchedRun(url, () =>
      undiciFetch(url, {
        ...POST,
        dispatcher,
        signal: AbortSignal.timeout(100),
      }),
    )
    expect(err.name).toBe('TimeoutError')
    expect(writes.noneWritten()).toBe(true)
    // the one connection frees up: the queued request is dropped, not sent
    await holding
    await new Promise((r) => setTimeout(r, 100))
    expect(first.noneWritten()).toBe(false)
    expect(writes.noneWritten()).toBe(true)
    await dispatcher.destroy()
  })

  test('not proof: a fetch undici never saw (a test double) proves nothing', async () => {
    const writes = watchRequestWrites()
    await expect(
      writes.run(() => Promise.reject(new TypeError('fetch failed'))),
    ).rejects.toThrow('fetch failed')
    expect(writes.noneWritten()).toBe(false)
  })

  test('behavior: concurrent fetches are told apart', async () => {
    const silent = await peer('silent')
    const a = watched(globalThis.fetch, `https://127.0.0.1:${silent.port}/`, {
      signal: AbortSignal.timeout(150),
    })
    const b = watched(globalThis.fetch, `http://127.0.0.1:${silent.port}/`, {
      signal: AbortSignal.timeout(150),
    })
    expect((await a).writes.noneWritten()).toBe(true)
    expect((await b).writes.noneWritten()).toBe(false)
  })
})
