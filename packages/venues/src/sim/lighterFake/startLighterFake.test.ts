import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createLighterAuthToken } from '../../lighter/signer/authToken.js'
import { changePubKey } from '../../lighter/signer/changePubKey.js'
import { createOrder } from '../../lighter/signer/createOrder.js'
import { generateLighterKeyPair } from '../../lighter/signer/lighterKeys.js'
import type { LighterSignedTx } from '../../lighter/signer/types.js'
import { createSimExchange } from '../simExchange.js'
import { type LighterFake, startLighterFake } from './startLighterFake.js'

interface Body {
  readonly code?: number
  readonly message?: string
  readonly nonce?: number
  readonly tx_hash?: string
  readonly api_keys?: unknown
  readonly orders?: Record<string, unknown>[]
  readonly order_book_details?: Record<string, unknown>[]
}

/** The fake's protocol checks, driven with raw signed txs. */
describe('startLighterFake', () => {
  const exchange = createSimExchange({
    venue: 'lighter-mainnet',
    seed: 61,
    clock: { now: () => Date.now() },
  })
  const wallet = privateKeyToAccount(generatePrivateKey())
  const owner = wallet.address.toLowerCase()
  const keys = generateLighterKeyPair()
  let fake: LighterFake
  let account: number
  beforeAll(async () => {
    fake = await startLighterFake({ exchange, venue: 'lighter-mainnet' })
    account = exchange.faucet(owner, 50_000).accountIndex
  })
  afterAll(() => fake.close())

  const send = async (tx: LighterSignedTx) => {
    const res = await fetch(`${fake.url}/api/v1/sendTx`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        tx_type: String(tx.txType),
        tx_info: tx.txInfo,
      }).toString(),
    })
    return { status: res.status, body: (await res.json()) as Body }
  }
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${fake.url}/api/v1/${path}`, { headers })
    return { status: res.status, body: (await res.json()) as Body }
  }
  const header = (nonce: number, apiKeyIndex = 5) => ({
    chainId: 304,
    nonce,
    expiredAt: Date.now() + 60_000,
    accountIndex: account,
    apiKeyIndex,
  })
  const register = async (
    over: Partial<Parameters<typeof changePubKey>[0]> = {},
    signer = wallet,
  ) => {
    const unsigned = changePubKey({ ...header(0), privateKey: keys.privateKey })
    const l1Sig = await signer.signMessage({ message: unsigned.messageToSign })
    return send(
      changePubKey({
        ...header(0),
        privateKey: keys.privateKey,
        l1Sig,
        ...over,
      }),
    )
  }
  const order = (nonce: number, coi: number, over = {}) =>
    createOrder({
      ...header(nonce),
      privateKey: keys.privateKey,
      marketIndex: 0,
      clientOrderIndex: coi,
      baseAmount: 100, // 0.01 ETH
      price: 100_000_00, // far above the book: fills
      isAsk: false,
      type: 0,
      timeInForce: 0,
      reduceOnly: false,
      orderExpiry: 0,
      ...over,
    })

  test('markets: deterministic ids, decimals from the engine steps', async () => {
    const { body } = await get('orderBookDetails?market_id=255&filter=perp')
    const rows = body.order_book_details ?? []
    expect(rows.map((r) => [r.symbol, r.market_id])).toEqual([
      ['BTC', 1],
      ['ETH', 0],
      ['SOL', 2],
    ])
    expect(rows[1]).toMatchObject({
      size_decimals: 4,
      price_decimals: 2,
      min_base_amount: '0.0050',
    })
  })

  test('changePubKey: wrong L1 signer, wrong chain, expired are refused; the nonce stays', async () => {
    const intruder = privateKeyToAccount(generatePrivateKey())
    expect((await register({}, intruder)).body).toMatchObject({
      code: 21504,
    })
    expect((await register({ chainId: 300 })).body).toMatchObject({
      code: 21120,
      message: 'invalid signature',
    })
    const expired = await register({ expiredAt: Date.now() - 1 })
    expect(expired.body.code).toBe(21501)
    expect(
      (await get(`nextNonce?account_index=${account}&api_key_index=5`)).body
        .nonce,
    ).toBe(0)
    expect((await register()).status).toBe(200)
    expect(
      (await get(`apikeys?account_index=${account}&api_key_index=255`)).body
        .api_keys,
    ).toEqual([
      {
        account_index: account,
        api_key_index: 5,
        nonce: 1,
        public_key: keys.publicKey.slice(2),
        transaction_time: 0,
      },
    ])
    const replay = await register()
    expect(replay.status).toBe(400)
    expect(replay.body.message).toMatch(/invalid nonce/)
  })

  test('createOrder: slot, nonce, expiry, minimum and duplicate checks', async () => {
    const unregistered = await send(
      createOrder({
        ...header(0, 6),
        privateKey: keys.privateKey,
        marketIndex: 0,
        clientOrderIndex: 11,
        baseAmount: 100,
        price: 100_000_00,
        isAsk: false,
        type: 0,
        timeInForce: 0,
        reduceOnly: false,
        orderExpiry: 0,
      }),
    )
    expect(unregistered.body.code).toBe(21109)
    expect((await send(order(7, 11))).body.message).toMatch(/invalid nonce/)
    expect((await send(order(1, 11, { baseAmount: 1 }))).body.code).toBe(21706)
    expect(
      (
        await send(
          order(1, 11, { timeInForce: 1, orderExpiry: Date.now() - 1000 }),
        )
      ).body.code,
    ).toBe(21711)
    const ok = await send(order(1, 11))
    expect(ok.status).toBe(200)
    expect(ok.body.tx_hash).toMatch(/^[0-9a-f]{80}$/)
    expect((await send(order(2, 11))).body.code).toBe(21728)
    expect(exchange.stats().byClientOrderId.get(`lighter:${account}:11`)).toBe(
      1,
    )
  })

  test('auth: authenticated reads need a valid token of the account', async () => {
    const path = `accountOrders?account_index=${account}&market_id=0&client_order_indexes=11`
    const token = (over = {}) =>
      createLighterAuthToken({
        deadline: Math.floor(Date.now() / 1000) + 600,
        accountIndex: account,
        apiKeyIndex: 5,
        privateKey: keys.privateKey,
        ...over,
      })
    expect((await get(path)).body.code).toBe(20013)
    for (const bad of [
      token({ deadline: Math.floor(Date.now() / 1000) - 1 }),
      token({ deadline: Math.floor(Date.now() / 1000) + 9 * 3600 }),
      token({ privateKey: generateLighterKeyPair().privateKey }),
      token({ apiKeyIndex: 6 }),
    ]) {
      expect((await get(path, { authorization: bad })).status).toBe(400)
    }
    const ok = await get(path, { authorization: token() })
    expect(ok.body.orders).toHaveLength(1)
    expect(ok.body.orders?.[0]).toMatchObject({
      client_order_index: 11,
      status: 'filled',
      filled_base_amount: '0.0100',
    })
    const viaQuery = await get(`${path}&auth=${token()}`)
    expect(viaQuery.status).toBe(200)
  })

  test('faults: outage answers 503; a lost answer still executes the tx', async () => {
    exchange.setFaults({ outage: true })
    expect((await get('funding-rates')).status).toBe(503)
    exchange.setFaults({ timeoutAfterAcceptRate: 1 })
    await expect(send(order(2, 12))).rejects.toThrow()
    exchange.setFaults({})
    expect(exchange.stats().byClientOrderId.get(`lighter:${account}:12`)).toBe(
      1,
    )
    expect(
      (await get(`nextNonce?account_index=${account}&api_key_index=5`)).body
        .nonce,
    ).toBe(3)
  })
})
