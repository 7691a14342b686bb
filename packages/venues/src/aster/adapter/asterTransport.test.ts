import {
  DEFAULT_DELIVERY_MARGIN_MS,
  UncertainSubmissionError,
  VenueRejectedError,
  VenueUnavailableError,
} from '@dn/core'
import { describe, expect, test } from 'vitest'
import { AsterRejectedError } from './asterRejectedError.js'
import {
  type AsterRequest,
  createAsterBudget,
  createAsterTransport,
} from './asterTransport.js'

const ORDER: AsterRequest = {
  method: 'POST',
  path: '/fapi/v3/order',
  params: 'symbol=BTCUSDT&signature=0x00',
  kind: 'write',
}
const READ: AsterRequest = { ...ORDER, method: 'GET', kind: 'read' }

/** A transport over a scripted fetch; `calls` records what was sent. */
function scripted(answers: (() => Response | Promise<Response>)[]) {
  let now = 1_000_000
  const calls: { url: string; init: RequestInit | undefined }[] = []
  const clock = { now: () => now }
  const send = createAsterTransport({
    baseUrl: 'https://fapi.example/',
    timeout: 1_000,
    budget: createAsterBudget({ clock }),
    fetchFn: async (url, init) => {
      calls.push({ url: String(url), init })
      const next = answers.shift()
      if (!next) throw new Error('no scripted answer')
      return next()
    },
  })
  return { send, calls, advance: (ms: number) => (now += ms) }
}

const json = (status: number, body: unknown, headers = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  })

const socketError = (code: string) =>
  Object.assign(new TypeError('fetch failed'), {
    cause: Object.assign(new Error(code), { code }),
  })

describe('createAsterTransport', () => {
  test('default: GET in the query, POST as a form body, byte for byte', async () => {
    const t = scripted([() => json(200, {}), () => json(200, [])])
    await t.send(READ)
    await t.send(ORDER)
    expect(t.calls[0]?.url).toBe(
      'https://fapi.example/fapi/v3/order?symbol=BTCUSDT&signature=0x00',
    )
    expect(t.calls[0]?.init?.body).toBeUndefined()
    expect(t.calls[1]?.url).toBe('https://fapi.example/fapi/v3/order')
    expect(t.calls[1]?.init?.body).toBe(ORDER.params)
    expect(t.calls[1]?.init?.headers).toEqual({
      'content-type': 'application/x-www-form-urlencoded',
    })
  })

  test('error: a venue code is AsterRejectedError with the venue msg', async () => {
    const t = scripted([
      () => json(400, { code: -2019, msg: 'Margin is insufficient.' }),
    ])
    const err = await t.send(ORDER).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(AsterRejectedError)
    expect(err).toBeInstanceOf(VenueRejectedError)
    expect(err).toMatchObject({
      venueCode: -2019,
      reason: 'Margin is insufficient.',
      code: 'venue_rejected',
    })
  })

  test('behavior: 503 or a dropped socket after sending an order is uncertain; a read is unavailable', async () => {
    const t = scripted([
      () => json(503, { code: -1007, msg: 'Timeout waiting for response' }),
      () => Promise.reject(socketError('UND_ERR_SOCKET')),
      () => json(200, { code: -1006, msg: 'Unexpected response' }),
      () => json(503, {}),
      () => Promise.reject(socketError('ECONNRESET')),
    ])
    await expect(t.send(ORDER)).rejects.toBeInstanceOf(UncertainSubmissionError)
    await expect(t.send(ORDER)).rejects.toBeInstanceOf(UncertainSubmissionError)
    await expect(t.send(ORDER)).rejects.toBeInstanceOf(UncertainSubmissionError)
    await expect(t.send(READ)).rejects.toBeInstanceOf(VenueUnavailableError)
    await expect(t.send(READ)).rejects.toBeInstanceOf(VenueUnavailableError)
  })

  test('behavior: a refused connection never sent the order', async () => {
    const t = scripted([() => Promise.reject(socketError('ECONNREFUSED'))])
    await expect(t.send(ORDER)).rejects.toBeInstanceOf(VenueUnavailableError)
  })

  test('behavior: 429 backs off for Retry-After without sending', async () => {
    const t = scripted([
      () =>
        json(
          429,
          { code: -1003, msg: 'Too many requests' },
          { 'Retry-After': '30' },
        ),
      () => json(200, {}),
    ])
    await expect(t.send(ORDER)).rejects.toBeInstanceOf(VenueUnavailableError)
    t.advance(20_000)
    await expect(t.send(READ)).rejects.toThrow(/back off/)
    expect(t.calls).toHaveLength(1)
    t.advance(10_000)
    await expect(t.send(READ)).resolves.toEqual({})
    expect(t.calls).toHaveLength(2)
  })

  test('behavior: 418 without Retry-After bans for 2 minutes', async () => {
    const t = scripted([() => json(418, {}), () => json(200, {})])
    await expect(t.send(READ)).rejects.toBeInstanceOf(VenueUnavailableError)
    t.advance(110_000)
    await expect(t.send(READ)).rejects.toThrow(/back off/)
    t.advance(9_000)
    t.advance(1_000)
    await expect(t.send(READ)).resolves.toEqual({})
  })

  test('behavior: weight the venue says this IP used (other processes too) is counted', async () => {
    const t = scripted([
      () => json(200, {}, { 'X-MBX-USED-WEIGHT-1m': '2400' }),
      () => json(200, {}, { 'X-MBX-USED-WEIGHT-1m': '1' }),
    ])
    await t.send(READ)
    await expect(t.send(READ)).rejects.toThrow(/budget is spent/)
    expect(t.calls).toHaveLength(1)
    // held for the window and the delivery margin
    t.advance(60_000 + DEFAULT_DELIVERY_MARGIN_MS)
    await expect(t.send(READ)).resolves.toEqual({})
  })
})
