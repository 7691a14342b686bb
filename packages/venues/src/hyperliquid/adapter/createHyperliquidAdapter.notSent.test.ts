import {
  type BindingConfig,
  UncertainSubmissionError,
  type VenueCredential,
  type VenueOrderRequest,
  VenueRejectedError,
  VenueUnavailableError,
} from '@dn/core'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  type HyperliquidFake,
  startHyperliquidFake,
} from '../../sim/hyperliquidFake/startHyperliquidFake.js'
import { createSimExchange } from '../../sim/simExchange.js'
import {
  crossingBuy,
  placeFaulted,
  type SendFault,
  type SendFaultProxy,
  type SendMatch,
  startSendFaultProxy,
} from '../../wire/testing/sendFaultProxy.js'
import { createHyperliquidBinder } from '../binder/createHyperliquidBinder.js'
import { createHyperliquidAdapter } from './createHyperliquidAdapter.js'

const config: BindingConfig = {
  feeApproval: false,
  builderAddress: `0x${'00'.repeat(20)}`,
  builderName: 'dn',
  lighterTestnet: false,
}

const cloid = () =>
  `0x${[...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('')}`

/** the `/exchange` post that places an order */
const isOrder: SendMatch = (method, path, body) =>
  method === 'POST' &&
  path === '/exchange' &&
  (JSON.parse(body) as { action?: { type?: string } }).action?.type === 'order'

const ADDRESS_LIMIT =
  'Too many cumulative requests sent (10001 > 10000) for cumulative volume traded $0. Place taker orders to free up 1 request per USDC traded.'
const answer = (status: number, body: unknown): SendFault => ({
  kind: 'answer',
  status,
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
})

/**
 * What Hyperliquid's answers and the transport's failures mean for an
 * order, against the protocol fake behind a loopback proxy that fails the
 * order's `/exchange` post one way at a time: VenueUnavailableError (not
 * sent: the worker sends it again, same cloid, fresh signature) or
 * UncertainSubmissionError (maybe placed: only looked up).
 */
describe('Hyperliquid place: what proves an order was not sent', () => {
  const exchange = createSimExchange({
    venue: 'hl',
    seed: 31,
    clock: { now: () => Date.now() },
  })
  let fake: HyperliquidFake
  let proxy: SendFaultProxy
  let cred: VenueCredential
  const adapterOver = () =>
    createHyperliquidAdapter({
      baseUrl: proxy.url,
      isMainnet: true,
      timeout: 1_000,
    })
  let adapter: ReturnType<typeof createHyperliquidAdapter>

  beforeAll(async () => {
    fake = await startHyperliquidFake({ exchange, port: 0 })
    proxy = await startSendFaultProxy(fake.url)
    const wallet = privateKeyToAccount(generatePrivateKey())
    const owner = wallet.address.toLowerCase()
    exchange.faucet(owner, 100_000)
    const binder = createHyperliquidBinder({
      baseUrl: fake.url,
      isMainnet: true,
    })
    const prepared = await binder.prepare(owner, { venue: 'hl' }, config)
    const signatures: Record<string, string> = {}
    for (const r of prepared.requests) {
      signatures[r.requestId] = await wallet.signTypedData(
        r.payload as Parameters<typeof wallet.signTypedData>[0],
      )
    }
    await binder.complete(owner, {
      target: { venue: 'hl' },
      ...prepared,
      signatures,
    })
    cred = {
      owner,
      venue: 'hl',
      accountIndex: null,
      credentialRef: prepared.credentialRef,
      secret: prepared.secret,
    }
    adapter = adapterOver()
  })
  afterAll(async () => {
    await proxy?.close()
    await fake?.close()
  })

  const buy = () => crossingBuy(adapter, 'BTC', '0.002', cloid())

  /** places `order` with `fault` on its post: the error it fails with */
  const placeWith = (
    fault: SendFault,
    order: VenueOrderRequest,
    a = adapter,
  ): Promise<unknown> =>
    placeFaulted(proxy, isOrder, fault, () => a.place(cred, order))
  const lookUp = (o: VenueOrderRequest) =>
    adapter.order(cred, o.market, o.clientOrderId)

  test.each([
    [
      'the address limit, {status: "err"}',
      answer(200, { status: 'err', response: ADDRESS_LIMIT }),
    ],
    [
      "the address limit as the one order's error",
      answer(200, {
        status: 'ok',
        response: {
          type: 'order',
          data: { statuses: [{ error: ADDRESS_LIMIT }] },
        },
      }),
    ],
  ])('notSent: %s; sent again it is placed once', async (_, fault) => {
    const o = await buy()
    const err = await placeWith(fault, o)
    expect(err).toBeInstanceOf(VenueUnavailableError)
    expect(err).not.toBeInstanceOf(UncertainSubmissionError)
    expect(await lookUp(o)).toBeNull()
    // what the worker does with notSent: the same cloid, a fresh signature
    expect(await adapter.place(cred, o)).toMatchObject({ state: 'filled' })
    expect(exchange.stats().byClientOrderId.get(o.clientOrderId)).toBe(1)
  })

  test('notSent: the per-IP 429 (and its budget holds off)', async () => {
    const own = adapterOver()
    const o = await buy()
    const err = await placeWith(answer(429, null), o, own)
    expect(err).toBeInstanceOf(VenueUnavailableError)
    expect((err as Error).message).toMatch(/rate limited \(HTTP 429\)/)
    expect(await lookUp(o)).toBeNull()
  })

  test('notSent: the connection refused', async () => {
    const o = await buy()
    await proxy.refuse()
    try {
      const err = await adapter.place(cred, o).catch((e: unknown) => e)
      expect(err).toBeInstanceOf(VenueUnavailableError)
      expect((err as Error).message).toBe(
        'hyperliquid POST /exchange: not reachable',
      )
    } finally {
      await proxy.restore()
    }
    expect(await lookUp(o)).toBeNull()
  })

  test.each([
    ['a 502 from a gateway, not forwarded', answer(502, 'bad gateway')],
    ['a 503, not forwarded', answer(503, null)],
    ['a 504, not forwarded', answer(504, null)],
    ['a 408', answer(408, null)],
  ])('uncertain: %s (the docs say nothing of a 5xx)', async (_, fault) => {
    const o = await buy()
    expect(await placeWith(fault, o)).toBeInstanceOf(UncertainSubmissionError)
    // never placed, but only a lookup may tell
    expect(await lookUp(o)).toBeNull()
  })

  test.each([
    [
      'a 500 after the venue acted',
      { kind: 'answerAfter', status: 500, body: '' },
    ],
    ['the connection reset after the venue acted', { kind: 'resetAfter' }],
  ] as [string, SendFault][])(
    'uncertain: %s; the lookup finds it',
    async (_, fault) => {
      const o = await buy()
      expect(await placeWith(fault, o)).toBeInstanceOf(UncertainSubmissionError)
      expect(await lookUp(o)).toMatchObject({ state: 'filled' })
    },
  )

  test('uncertain: our timeout after the order was written', async () => {
    const o = await buy()
    const err = await placeWith({ kind: 'hold' }, o)
    expect(err).toBeInstanceOf(UncertainSubmissionError)
    expect((err as Error).message).toMatch(/timed out$/)
  })

  test('rejected: any other {status: "err"} is a refusal, not "not sent"', async () => {
    const o = await buy()
    const err = await placeWith(
      answer(200, {
        status: 'err',
        response: 'User or API Wallet 0x00 does not exist.',
      }),
      o,
    )
    expect(err).toBeInstanceOf(VenueRejectedError)
    expect(err).not.toBeInstanceOf(VenueUnavailableError)
  })
})
