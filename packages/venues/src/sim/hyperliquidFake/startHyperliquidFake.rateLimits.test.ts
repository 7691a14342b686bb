import { request } from 'node:http'
import { afterEach, describe, expect, test } from 'vitest'
import type { FakeLimitOptions } from '../fakeLimitOptions.js'
import { createSimExchange } from '../simExchange.js'
import {
  type HyperliquidFake,
  startHyperliquidFake,
} from './startHyperliquidFake.js'

let fake: HyperliquidFake | undefined
afterEach(async () => {
  await fake?.close()
  fake = undefined
})

async function setup(rateLimits: boolean | FakeLimitOptions) {
  const exchange = createSimExchange({
    venue: 'hl',
    seed: 5,
    clock: { now: () => Date.now() },
  })
  fake = await startHyperliquidFake({ exchange, rateLimits })
  const url = fake.url
  const info = async (body: unknown) => {
    const res = await fetch(`${url}/info`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    return { status: res.status, text: await res.text(), res }
  }
  return { fake, info }
}

/** POST /info from another loopback address: another client IP. */
function infoFrom(url: string, localAddress: string, body: unknown) {
  return new Promise<number>((resolve, reject) => {
    const req = request(
      `${url}/info`,
      {
        method: 'POST',
        localAddress,
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
      },
    )
    req.on('error', reject)
    req.end(JSON.stringify(body))
  })
}

describe('startHyperliquidFake rate limits', () => {
  test('behavior: 1200 weight a minute per IP, then 429 `null` until it frees', async () => {
    let t = 1_000_000
    const { fake, info } = await setup({ now: () => t })
    for (let i = 0; i < 60; i++) {
      expect((await info({ type: 'metaAndAssetCtxs' })).status).toBe(200)
    }
    const refused = await info({ type: 'metaAndAssetCtxs' })
    expect(refused.status).toBe(429)
    expect(refused.text).toBe('null')
    expect(refused.res.headers.get('content-type')).toBe('application/json')
    expect(refused.res.headers.get('retry-after')).toBeNull()
    // even the lightest read waits: every accepted one is still in the window
    expect((await info({ type: 'l2Book', coin: 'BTC' })).status).toBe(429)
    t += 60_000
    expect((await info({ type: 'metaAndAssetCtxs' })).status).toBe(200)
    expect(fake.rateLimitUsage()).toEqual([
      {
        limit: 'weight',
        per: 'ip',
        subject: '127.0.0.1',
        capacity: 1200,
        requests: 61,
        weight: 20,
        refused: 2,
        peak: 1200,
      },
    ])
  })

  test('behavior: actions weigh 1 + floor(batch/40); reads by type', async () => {
    const { fake, info } = await setup(true)
    await info({ type: 'clearinghouseState', user: `0x${'1'.repeat(40)}` })
    await info({ type: 'userRole', user: `0x${'1'.repeat(40)}` })
    await fetch(`${fake.url}/exchange`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        action: { type: 'order', orders: new Array(80).fill({}) },
        nonce: 1,
        signature: { r: '0x0', s: '0x0', v: 27 },
      }),
    })
    // a body that is not JSON is still a request (weight 20)
    await fetch(`${fake.url}/info`, { method: 'POST', body: 'nope' })
    expect(fake.rateLimitUsage()[0]?.weight).toBe(2 + 60 + 3 + 20)
  })

  test('behavior: the budget is per client IP', async () => {
    const { fake, info } = await setup({
      limits: [{ id: 'weight', capacity: 40, windowMs: 60_000, per: 'ip' }],
    })
    expect((await info({ type: 'meta' })).status).toBe(200)
    expect((await info({ type: 'meta' })).status).toBe(200)
    expect((await info({ type: 'meta' })).status).toBe(429)
    expect(await infoFrom(fake.url, '127.0.0.2', { type: 'meta' })).toBe(200)
    const subjects = fake.rateLimitUsage().map((u) => [u.subject, u.weight])
    expect(subjects).toEqual([
      ['127.0.0.1', 40],
      ['127.0.0.2', 20],
    ])
  })

  test('default: not enforced, only measured (the peak shows the excess)', async () => {
    const { fake, info } = await setup(false)
    for (let i = 0; i < 61; i++) {
      expect((await info({ type: 'meta' })).status).toBe(200)
    }
    expect(fake.rateLimitUsage()[0]).toMatchObject({ peak: 1220, refused: 0 })
  })
})
