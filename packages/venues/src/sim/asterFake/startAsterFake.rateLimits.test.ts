import type { Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterEach, describe, expect, test } from 'vitest'
import { signAsterMessage } from '../../aster/signing/asterMessage.js'
import { formEncode } from '../../aster/signing/formEncode.js'
import type { PublishedLimit } from '../../wire/requestCharge.js'
import type { FakeLimitOptions } from '../fakeLimitOptions.js'
import { createSimExchange } from '../simExchange.js'
import { bindAsterWallet } from './asterTestKit.js'
import { type AsterFake, startAsterFake } from './startAsterFake.js'

let fake: AsterFake | undefined
afterEach(async () => {
  await fake?.close()
  fake = undefined
})

const limit = (
  id: string,
  capacity: number,
  per: PublishedLimit['per'],
): PublishedLimit => ({ id, capacity, windowMs: 60_000, per })

async function setup(rateLimits: FakeLimitOptions | boolean) {
  const exchange = createSimExchange({
    venue: 'aster',
    seed: 9,
    clock: { now: () => Date.now() },
  })
  fake = await startAsterFake({ exchange, rateLimits })
  const url = fake.url
  const call = async (method: string, path: string, body?: string) => {
    const res = await fetch(`${url}${path}`, {
      method,
      ...(body === undefined
        ? {}
        : {
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body,
          }),
    })
    return {
      status: res.status,
      body: (await res.json()) as { code?: number; msg?: string } & Record<
        string,
        unknown
      >,
      weight: res.headers.get('x-mbx-used-weight-1m'),
      orders: res.headers.get('x-mbx-order-count-1m'),
      retryAfter: res.headers.get('retry-after'),
    }
  }
  return { fake, exchange, call }
}

describe('startAsterFake rate limits', () => {
  test('behavior: weights, X-MBX-USED-WEIGHT-1M on every answer, 429 then 418 bans', async () => {
    let t = 10_000
    const { call } = await setup({
      now: () => t,
      limits: [limit('REQUEST_WEIGHT', 100, 'ip')],
    })
    const info = await call('GET', '/fapi/v3/exchangeInfo')
    expect(info.weight).toBe('1')
    expect(info.body.rateLimits).toEqual([
      {
        rateLimitType: 'REQUEST_WEIGHT',
        interval: 'MINUTE',
        intervalNum: 1,
        limit: 100,
      },
      {
        rateLimitType: 'ORDERS',
        interval: 'MINUTE',
        intervalNum: 1,
        limit: 1200,
      },
    ])
    expect((await call('GET', '/fapi/v3/ticker/bookTicker')).weight).toBe('3')
    // errors carry the header too (unsigned: -1102), and still weigh
    const unsigned = await call('GET', '/fapi/v3/positionRisk')
    expect([unsigned.status, unsigned.body.code, unsigned.weight]).toEqual([
      400,
      -1102,
      '8',
    ])
    for (const used of ['38', '68', '98']) {
      expect((await call('GET', '/fapi/v3/positionSide/dual')).weight).toBe(
        used,
      )
    }
    expect(
      (await call('GET', '/fapi/v3/premiumIndex?symbol=BTCUSDT')).weight,
    ).toBe('99')
    expect((await call('GET', '/fapi/v3/time')).weight).toBe('100')

    const limited = await call('GET', '/fapi/v3/time')
    expect(limited).toMatchObject({
      status: 429,
      weight: '100',
      retryAfter: '50', // the calendar minute ends at 60 000
      body: {
        code: -1003,
        msg: 'Too many requests; current limit is 100 requests per minute. Please use the websocket for live updates to avoid polling the API.',
      },
    })
    t = 11_000 // sending again before Retry-After: banned for 2 minutes
    const banned = await call('GET', '/fapi/v3/time')
    expect(banned).toMatchObject({
      status: 418,
      retryAfter: '120',
      weight: '100',
    })
    expect(banned.body.code).toBe(-1003)
    expect(banned.body.msg).toBe(
      'Way too many requests; IP banned until 131000. Please use the websocket for live updates to avoid bans.',
    )
    t = 70_000 // a new minute, still banned
    expect(await call('GET', '/fapi/v3/time')).toMatchObject({
      status: 418,
      retryAfter: '61',
      weight: '0',
    })
    t = 131_000
    expect(await call('GET', '/fapi/v3/time')).toMatchObject({
      status: 200,
      weight: '1',
    })
    // a second offence bans for twice as long
    for (let i = 0; i < 3; i++) await call('GET', '/fapi/v3/positionSide/dual')
    expect((await call('GET', '/fapi/v3/positionSide/dual')).status).toBe(429)
    expect(await call('GET', '/fapi/v3/time')).toMatchObject({
      status: 418,
      retryAfter: '240',
    })
  })

  test('behavior: ORDERS per signed user, X-MBX-ORDER-COUNT-1M on orders', async () => {
    const t = 10_000
    const { fake, exchange, call } = await setup({
      now: () => t,
      limits: [limit('ORDERS', 2, 'account')],
    })
    const a = await bindAsterWallet(fake.url, exchange)
    const b = await bindAsterWallet(fake.url, exchange)
    let seq = 0
    const order = async (cred: typeof a.cred) => {
      const key = cred.secret as Hex
      const msg = formEncode([
        ['symbol', 'BTCUSDT'],
        ['side', 'BUY'],
        ['type', 'LIMIT'],
        ['timeInForce', 'GTC'],
        ['quantity', '0.001'],
        ['price', '90000'],
        ['nonce', String(Date.now() * 1000 + ++seq)],
        ['user', cred.owner],
        ['signer', privateKeyToAccount(key).address],
      ])
      const signature = await signAsterMessage({
        privateKey: key,
        msg,
        chainId: 1666,
      })
      return call('POST', '/fapi/v3/order', `${msg}&signature=${signature}`)
    }
    // an unsigned request naming a user spends no orders of that user
    const forged = await call('POST', '/fapi/v3/order', `user=${a.cred.owner}`)
    expect([forged.body.code, forged.orders]).toEqual([-1102, null])
    const first = await order(a.cred)
    expect([first.status, first.orders]).toEqual([200, '1'])
    expect((await order(a.cred)).orders).toBe('2')
    const refused = await order(a.cred)
    expect(refused).toMatchObject({
      status: 429,
      orders: '2',
      retryAfter: '50',
      body: {
        code: -1015,
        msg: 'Too many new orders; current limit is 2 orders per MINUTE.',
      },
    })
    expect(refused.weight).not.toBeNull()
    // another account is not limited, and an ORDERS 429 bans no IP
    expect((await order(b.cred)).orders).toBe('1')
    expect((await order(a.cred)).status).toBe(429)
    const usage = fake
      .rateLimitUsage()
      .find((u) => u.limit === 'ORDERS' && u.subject === a.cred.owner)
    expect(usage).toMatchObject({ requests: 2, refused: 2, peak: 2 })
  })

  test('default: not enforced, headers still sent', async () => {
    const { fake, call } = await setup(false)
    for (let i = 0; i < 3; i++) await call('GET', '/fapi/v3/positionSide/dual')
    const r = await call('GET', '/fapi/v3/time')
    expect([r.status, r.weight]).toEqual([200, '91'])
    expect(fake.rateLimitUsage()[0]).toMatchObject({
      limit: 'REQUEST_WEIGHT',
      capacity: 2400,
      refused: 0,
    })
  })
})
