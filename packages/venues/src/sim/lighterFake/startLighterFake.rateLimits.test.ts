import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterEach, describe, expect, test } from 'vitest'
import { createLighterAuthToken } from '../../lighter/signer/authToken.js'
import { changePubKey } from '../../lighter/signer/changePubKey.js'
import { createOrder } from '../../lighter/signer/createOrder.js'
import { generateLighterKeyPair } from '../../lighter/signer/lighterKeys.js'
import type { LighterSignedTx } from '../../lighter/signer/types.js'
import type { FakeLimitOptions } from '../fakeLimitOptions.js'
import { createSimExchange } from '../simExchange.js'
import { type LighterFake, startLighterFake } from './startLighterFake.js'

let fake: LighterFake | undefined
afterEach(async () => {
  await fake?.close()
  fake = undefined
})

const TOO_MANY = { code: 23000, message: 'Too Many Requests!' }

/** A fake with one funded account whose API key 5 is registered. */
async function setup(rateLimits: FakeLimitOptions) {
  const exchange = createSimExchange({
    venue: 'lighter-mainnet',
    seed: 17,
    clock: { now: () => Date.now() },
  })
  fake = await startLighterFake({
    exchange,
    venue: 'lighter-mainnet',
    rateLimits,
  })
  const url = fake.url
  const wallet = privateKeyToAccount(generatePrivateKey())
  const owner = wallet.address.toLowerCase()
  const account = exchange.faucet(owner, 50_000).accountIndex
  const keys = generateLighterKeyPair()
  const header = (nonce: number) => ({
    chainId: 304,
    nonce,
    expiredAt: Date.now() + 60_000,
    accountIndex: account,
    apiKeyIndex: 5,
    privateKey: keys.privateKey,
  })
  const send = async (tx: LighterSignedTx) => {
    const res = await fetch(`${url}/api/v1/sendTx`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        tx_type: String(tx.txType),
        tx_info: tx.txInfo,
      }).toString(),
    })
    return { status: res.status, body: (await res.json()) as unknown }
  }
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${url}/api/v1/${path}`, { headers })
    return { status: res.status, body: (await res.json()) as unknown, res }
  }
  const unsigned = changePubKey(header(0))
  const l1Sig = await wallet.signMessage({ message: unsigned.messageToSign })
  expect((await send(changePubKey({ ...header(0), l1Sig }))).status).toBe(200)
  const token = createLighterAuthToken({
    deadline: Math.floor(Date.now() / 1000) + 600,
    accountIndex: account,
    apiKeyIndex: 5,
    privateKey: keys.privateKey,
  })
  const authed = () =>
    get(`accountActiveOrders?account_index=${account}&market_id=0`, {
      authorization: token,
    })
  const order = (nonce: number) =>
    send(
      createOrder({
        ...header(nonce),
        marketIndex: 0,
        clientOrderIndex: nonce,
        baseAmount: 100,
        price: 1_000_00,
        isAsk: false,
        type: 0,
        timeInForce: 1,
        reduceOnly: false,
        orderExpiry: Date.now() + 3_600_000,
      }),
    )
  return { fake, owner, get, authed, order }
}

describe('startLighterFake rate limits (standard tier)', () => {
  test('behavior: 60 anonymous reads a minute per IP, then 429 {code: 23000}', async () => {
    let t = 0
    const { fake, get } = await setup({ now: () => t })
    for (let i = 0; i < 60; i++) {
      expect((await get('orderBookDetails?market_id=255')).status).toBe(200)
    }
    const refused = await get('funding-rates')
    expect(refused.status).toBe(429)
    expect(refused.body).toEqual(TOO_MANY)
    expect(refused.res.headers.get('retry-after')).toBeNull()
    t += 60_000
    expect((await get('funding-rates')).status).toBe(200)
    expect(fake.rateLimitUsage().find((u) => u.limit === 'ip')).toMatchObject({
      subject: '127.0.0.1',
      capacity: 60,
      refused: 1,
    })
  })

  test('behavior: authenticated reads and txs count per L1 address only', async () => {
    const t = 0
    const { fake, owner, get, authed, order } = await setup({ now: () => t })
    for (let i = 0; i < 60; i++) await get('orderBookDetails')
    expect((await get('orderBookDetails')).status).toBe(429)
    // the IP is spent, the account is not: 1 (ChangePubKey) so far
    expect((await authed()).status).toBe(200)
    expect((await order(1)).status).toBe(200)
    // a token that does not verify is an anonymous read: the IP's limit
    expect(
      (await get('account?by=index&value=1', { authorization: 'x' })).status,
    ).toBe(429)
    // 3 counted on the address; 57 more reads fill its 60
    for (let i = 0; i < 57; i++) expect((await authed()).status).toBe(200)
    expect((await authed()).body).toEqual(TOO_MANY)
    expect((await order(2)).body).toEqual(TOO_MANY)
    const l1 = fake.rateLimitUsage().find((u) => u.limit === 'l1')
    expect(l1).toMatchObject({
      subject: owner,
      requests: 60,
      refused: 2,
      peak: 60,
    })
  })

  test('behavior: heavy endpoints are capped at 24 000 / weight a minute', async () => {
    const t = 0
    const { get } = await setup({ now: () => t })
    for (let i = 0; i < 40; i++) {
      expect((await get('recentTrades?market_id=0&limit=1')).status).not.toBe(
        429,
      )
    }
    expect((await get('recentTrades?market_id=0&limit=1')).status).toBe(429)
    expect((await get('orderBookDetails')).status).toBe(200)
  })

  test('behavior: premium weighs reads; sendTx has its own bucket', async () => {
    const t = 0
    const { fake, get, order } = await setup({
      now: () => t,
      lighterTier: 'premium',
      limits: [
        { id: 'ip', capacity: 450, windowMs: 60_000, per: 'ip' },
        { id: 'tx', capacity: 1, windowMs: 60_000, per: 'account' },
      ],
    })
    // apikeys weighs 150
    for (let i = 0; i < 3; i++) {
      expect(
        (await get('apikeys?account_index=1&api_key_index=255')).status,
      ).toBe(200)
    }
    expect(
      (await get('nextNonce?account_index=1&api_key_index=5')).status,
    ).toBe(429)
    // the ChangePubKey spent the one tx this minute
    expect((await order(1)).body).toEqual(TOO_MANY)
    expect(fake.rateLimitUsage().map((u) => [u.limit, u.weight])).toEqual([
      ['tx', 1],
      ['ip', 450],
    ])
  })
})
