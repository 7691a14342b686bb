import {
  UncertainSubmissionError,
  type VenueCredential,
  type VenueOrderRequest,
  VenueRejectedError,
  VenueUnavailableError,
} from '@dn/core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { bindAsterWallet } from '../../sim/asterFake/asterTestKit.js'
import {
  type AsterFake,
  startAsterFake,
} from '../../sim/asterFake/startAsterFake.js'
import { createSimExchange } from '../../sim/simExchange.js'
import {
  crossingBuy,
  placeFaulted,
  type SendFault,
  type SendFaultProxy,
  type SendMatch,
  startSendFaultProxy,
} from '../../wire/testing/sendFaultProxy.js'
import { AsterRejectedError } from './asterRejectedError.js'
import { createAsterAdapter } from './createAsterAdapter.js'

const cloid = () =>
  `0x${[...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('')}`

const isOrder: SendMatch = (method, path) =>
  method === 'POST' && path === '/fapi/v3/order'

const answer = (
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): SendFault => ({
  kind: 'answer',
  status,
  body: typeof body === 'string' ? body : JSON.stringify(body),
  headers: { 'content-type': 'application/json', ...headers },
})

/** Binance USDⓈ-M's 503 variants: Aster documents every 503 as unknown */
const UNKNOWN_503 = {
  code: -1000,
  msg: 'Unknown error, please check your request or try again later.',
}
const UNAVAILABLE_503 = { code: -1000, msg: 'Service Unavailable.' }
const INTERNAL = {
  code: -1001,
  msg: 'Internal error; unable to process your request. Please try again.',
}
const THROTTLED_503 = {
  code: -1008,
  msg: 'Request throttled by system-level protection. Reduce-only/close-position orders are exempt. Please try again.',
}

/**
 * What Aster's answers and the transport's failures mean for an order,
 * against the protocol fake behind a loopback proxy that fails the
 * `POST /fapi/v3/order` one way at a time: VenueUnavailableError (not
 * sent: the worker sends it again, same client order id, a fresh
 * signature) or UncertainSubmissionError (maybe placed: only looked up).
 */
describe('Aster place: what proves an order was not sent', () => {
  const exchange = createSimExchange({
    venue: 'aster',
    seed: 37,
    clock: { now: () => Date.now() },
  })
  let fake: AsterFake
  let proxy: SendFaultProxy
  let cred: VenueCredential
  const adapterOver = () =>
    createAsterAdapter({ baseUrl: proxy.url, timeout: 1_000 })
  let adapter: ReturnType<typeof createAsterAdapter>

  beforeAll(async () => {
    fake = await startAsterFake({ exchange, port: 0 })
    proxy = await startSendFaultProxy(fake.url)
    cred = (await bindAsterWallet(fake.url, exchange)).cred
    adapter = adapterOver()
  })
  afterAll(async () => {
    await proxy?.close()
    await fake?.close()
  })

  const placed = (id: string) => exchange.stats().byClientOrderId.get(id) ?? 0

  const buy = () => crossingBuy(adapter, 'ETHUSDT', '0.01', cloid())

  const placeWith = (
    fault: SendFault,
    order: VenueOrderRequest,
    a = adapter,
  ): Promise<unknown> =>
    placeFaulted(proxy, isOrder, fault, () => a.place(cred, order))

  test('default: an order through the proxy fills', async () => {
    const o = await buy()
    expect(await adapter.place(cred, o)).toMatchObject({ state: 'filled' })
  })

  test.each([
    ['403, the WAF refusing it', answer(403, '<html>403 Forbidden</html>')],
    ['-1001 below HTTP 500', answer(400, INTERNAL)],
  ])('notSent: %s; sent again it is placed once', async (_, fault) => {
    const o = await buy()
    const err = await placeWith(fault, o)
    expect(err).toBeInstanceOf(VenueUnavailableError)
    expect(err).not.toBeInstanceOf(UncertainSubmissionError)
    expect(placed(o.clientOrderId)).toBe(0)
    expect(await adapter.place(cred, o)).toMatchObject({ state: 'filled' })
    expect(placed(o.clientOrderId)).toBe(1)
  })

  test.each([
    ['429 -1003', answer(429, { code: -1003, msg: 'Too many requests' })],
    ['418, the IP banned', answer(418, { code: -1003, msg: 'Way too many' })],
  ])('notSent: the rate limit, %s', async (_, fault) => {
    const own = adapterOver()
    const o = await buy()
    const err = await placeWith(fault, o, own)
    expect(err).toBeInstanceOf(VenueUnavailableError)
    expect((err as Error).message).toMatch(/rate limited/)
    expect(placed(o.clientOrderId)).toBe(0)
  })

  test('notSent: the connection refused', async () => {
    const o = await buy()
    await proxy.refuse()
    try {
      const err = await adapter.place(cred, o).catch((e: unknown) => e)
      expect(err).toBeInstanceOf(VenueUnavailableError)
      expect((err as Error).message).toBe(
        'aster POST /fapi/v3/order: not reachable',
      )
    } finally {
      await proxy.restore()
    }
    expect(placed(o.clientOrderId)).toBe(0)
  })

  test.each([
    ['503 "Unknown error…"', answer(503, UNKNOWN_503)],
    ['503 "Service Unavailable."', answer(503, UNAVAILABLE_503)],
    ['503 -1001 "Internal error…"', answer(503, INTERNAL)],
    ['503 -1008 "Request throttled…"', answer(503, THROTTLED_503)],
    ['a 502 from a gateway', answer(502, 'bad gateway')],
    ['408', answer(408, '')],
    [
      '-1007 timeout waiting for the backend',
      answer(400, { code: -1007, msg: 'Timeout' }),
    ],
  ])(
    'uncertain: %s, not forwarded (Aster: a 503 is UNKNOWN)',
    async (_, fault) => {
      const o = await buy()
      expect(await placeWith(fault, o)).toBeInstanceOf(UncertainSubmissionError)
      expect(placed(o.clientOrderId)).toBe(0)
    },
  )

  test.each([
    [
      '503 "Service Unavailable." after the venue acted',
      { ...answer(503, UNAVAILABLE_503), kind: 'answerAfter' },
    ],
    ['the connection reset after the venue acted', { kind: 'resetAfter' }],
  ] as [string, SendFault][])(
    'uncertain: %s; the lookup finds it',
    async (_, fault) => {
      const o = await buy()
      expect(await placeWith(fault, o)).toBeInstanceOf(UncertainSubmissionError)
      expect(placed(o.clientOrderId)).toBe(1)
      expect(
        await adapter.order(cred, o.market, o.clientOrderId),
      ).toMatchObject({ state: 'filled' })
    },
  )

  test('uncertain: our timeout after the order was written', async () => {
    const o = await buy()
    const err = await placeWith({ kind: 'hold' }, o)
    expect(err).toBeInstanceOf(UncertainSubmissionError)
    expect((err as Error).message).toMatch(/timed out$/)
  })

  test('rejected: another venue code is a refusal, not "not sent"', async () => {
    const o = await buy()
    const err = await placeWith(
      answer(400, { code: -2019, msg: 'Margin is insufficient.' }),
      o,
    )
    expect(err).toBeInstanceOf(AsterRejectedError)
    expect(err).toBeInstanceOf(VenueRejectedError)
  })
})
