import {
  UncertainSubmissionError,
  type VenueOrderRequest,
  VenueRejectedError,
  VenueUnavailableError,
} from '@dn/core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  type LighterTestBed,
  openLighterTestBed,
} from '../../sim/testing/lighterTestBed.js'
import {
  crossingBuy,
  placeFaulted,
  type SendFault,
  type SendFaultProxy,
  type SendMatch,
  startSendFaultProxy,
} from '../../wire/testing/sendFaultProxy.js'
import { createLighterAdapter } from './createLighterAdapter.js'
import { LighterRejectedError } from './lighterRejectedError.js'

const cloid = () =>
  `0x${[...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('')}`

/** the `sendTx` of a CreateOrder (tx type 14) */
const isCreateOrder: SendMatch = (method, path, body) =>
  method === 'POST' &&
  path === '/api/v1/sendTx' &&
  new URLSearchParams(body).get('tx_type') === '14'

const answer = (status: number, body: unknown): SendFault => ({
  kind: 'answer',
  status,
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
})
const PENDING = {
  code: 21506,
  message: 'too many pending txs. Please try again later',
}

/**
 * What Lighter's answers and the transport's failures mean for an order,
 * against the protocol fake behind a loopback proxy that fails the
 * CreateOrder `sendTx` one way at a time: VenueUnavailableError (not sent:
 * the worker sends it again, same client order index, a fresh signature)
 * or UncertainSubmissionError (maybe accepted: only looked up).
 */
describe('Lighter place: what proves an order was not sent', () => {
  let bed: LighterTestBed
  let proxy: SendFaultProxy
  const adapterOver = () =>
    createLighterAdapter({
      venue: 'lighter-mainnet',
      baseUrl: proxy.url,
      tier: 'builder',
      timeout: 1_000,
      confirmDelayMs: 5,
    })
  let adapter: ReturnType<typeof createLighterAdapter>

  beforeAll(async () => {
    bed = await openLighterTestBed('lighter-mainnet', 43)
    proxy = await startSendFaultProxy(bed.fake.url)
    adapter = adapterOver()
  })
  afterAll(async () => {
    await proxy?.close()
    await bed?.fake.close()
  })

  const placed = (id: string) =>
    bed.exchange
      .stats()
      .byClientOrderId.get(bed.fake.engineOrderId(bed.accountIndex, id)) ?? 0
  const keyNonce = () =>
    bed.fake.state.nonces.get(`${bed.accountIndex}:5`) ?? -1

  const buy = () => crossingBuy(adapter, 'ETH', '0.01', cloid())

  const placeWith = (
    fault: SendFault,
    order: VenueOrderRequest,
    a = adapter,
  ): Promise<unknown> =>
    placeFaulted(proxy, isCreateOrder, fault, () => a.place(bed.cred, order))

  test('default: an order through the proxy fills (the key nonce is known after it)', async () => {
    const o = await buy()
    expect(await adapter.place(bed.cred, o)).toMatchObject({ state: 'filled' })
  })

  test.each([
    ['21506 too many pending txs (HTTP 400)', answer(400, PENDING)],
    ['21506 too many pending txs (HTTP 200)', answer(200, PENDING)],
  ])(
    'notSent: %s; nonce unused, sent again it is placed once',
    async (_, fault) => {
      const o = await buy()
      const nonce = keyNonce()
      const err = await placeWith(fault, o)
      expect(err).toBeInstanceOf(VenueUnavailableError)
      expect(err).not.toBeInstanceOf(UncertainSubmissionError)
      expect(placed(o.clientOrderId)).toBe(0)
      expect(keyNonce()).toBe(nonce)
      expect(await adapter.place(bed.cred, o)).toMatchObject({
        state: 'filled',
      })
      expect(placed(o.clientOrderId)).toBe(1)
    },
  )

  test('notSent: the rate limit, 429 {code: 23000}', async () => {
    const own = adapterOver()
    const o = await buy()
    const err = await placeWith(
      { ...answer(429, { code: 23000, message: 'Too Many Requests!' }) },
      o,
      own,
    )
    expect(err).toBeInstanceOf(VenueUnavailableError)
    expect((err as Error).message).toMatch(/rate limited \(HTTP 429\)/)
    expect(placed(o.clientOrderId)).toBe(0)
  })

  test('notSent: the connection refused', async () => {
    const o = await buy()
    await proxy.refuse()
    try {
      const err = await adapter.place(bed.cred, o).catch((e: unknown) => e)
      expect(err).toBeInstanceOf(VenueUnavailableError)
      expect((err as Error).message).toBe(
        'lighter POST /api/v1/sendTx: not reachable',
      )
    } finally {
      await proxy.restore()
    }
    expect(placed(o.clientOrderId)).toBe(0)
  })

  test.each([
    ['a 502 from a gateway, not forwarded', answer(502, 'bad gateway')],
    [
      'a 503, not forwarded',
      answer(503, { code: 503, message: 'unavailable' }),
    ],
    ['a 408', answer(408, null)],
  ])('uncertain: %s (Lighter documents no 5xx)', async (_, fault) => {
    const o = await buy()
    expect(await placeWith(fault, o)).toBeInstanceOf(UncertainSubmissionError)
    expect(placed(o.clientOrderId)).toBe(0)
  })

  test.each([
    [
      'a 503 after the venue accepted',
      { kind: 'answerAfter', status: 503, body: '' },
    ],
    ['the connection reset after the venue accepted', { kind: 'resetAfter' }],
  ] as [string, SendFault][])(
    'uncertain: %s; the lookup finds it',
    async (_, fault) => {
      const o = await buy()
      expect(await placeWith(fault, o)).toBeInstanceOf(UncertainSubmissionError)
      expect(placed(o.clientOrderId)).toBe(1)
      expect(
        await adapter.order(bed.cred, o.market, o.clientOrderId),
      ).toMatchObject({ state: 'filled' })
    },
  )

  test('uncertain: our timeout after the tx was written', async () => {
    const o = await buy()
    const err = await placeWith({ kind: 'hold' }, o)
    expect(err).toBeInstanceOf(UncertainSubmissionError)
    expect((err as Error).message).toMatch(/timed out$/)
  })

  test('rejected: another API code is a refusal, not "not sent"', async () => {
    const o = await buy()
    const err = await placeWith(
      answer(400, {
        code: 21739,
        message: 'not enough margin to create the order',
      }),
      o,
    )
    expect(err).toBeInstanceOf(LighterRejectedError)
    expect(err).toBeInstanceOf(VenueRejectedError)
  })
})
