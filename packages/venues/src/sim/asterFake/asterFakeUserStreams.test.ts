import type { VenueCredential } from '@dn/core'
import type { Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { WebSocket } from 'ws'
import { signAsterMessage } from '../../aster/signing/asterMessage.js'
import { formEncode } from '../../aster/signing/formEncode.js'
import { createSimExchange } from '../simExchange.js'
import { bindAsterWallet } from './asterTestKit.js'
import { type AsterFake, startAsterFake } from './startAsterFake.js'

const until = async (ok: () => boolean, ms = 3_000) => {
  const end = Date.now() + ms
  while (!ok()) {
    if (Date.now() > end) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 5))
  }
}

type Frame = Record<string, unknown> & {
  a?: { m: string; B: unknown[]; P: Record<string, string>[] }
}

/** A user-stream client that keeps every frame it receives. */
function listen(url: string) {
  const frames: Frame[] = []
  const ws = new WebSocket(url)
  ws.on('message', (d) => frames.push(JSON.parse(String(d)) as Frame))
  const opened = new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve())
    ws.once('unexpected-response', (_req, res) =>
      reject(new Error(`HTTP ${res.statusCode}`)),
    )
    ws.once('error', reject)
  })
  return { ws, frames, opened }
}

/**
 * The fake's listenKey endpoints and user data streams, on a clock the
 * test moves (key expiry, funding on the hour).
 */
describe('Aster fake: listenKey and user data streams', () => {
  // ten seconds before an hour: funding settles when the test says
  let t = Date.UTC(2026, 0, 5, 10, 59, 50)
  const clock = { now: () => t }
  const exchange = createSimExchange({ venue: 'aster', seed: 21, clock })
  let fake: AsterFake
  let cred: VenueCredential
  let n = 0
  const clients: WebSocket[] = []

  beforeAll(async () => {
    fake = await startAsterFake({
      exchange,
      port: 0,
      now: clock.now,
      userStreamIntervalMs: 20,
    })
    cred = (await bindAsterWallet(fake.url, exchange, { clock })).cred
  })
  afterAll(async () => {
    for (const c of clients) c.terminate()
    await fake.close()
  })

  /** A listenKey request signed by `key` (default: the bound agent). */
  async function keyCall(method: string, key = cred.secret as Hex) {
    const signer = privateKeyToAccount(cred.secret as Hex).address
    const msg = formEncode([
      ['nonce', String(t * 1000 + 1000 + ++n)],
      ['user', cred.owner],
      ['signer', signer],
    ])
    const signature = await signAsterMessage({
      privateKey: key,
      msg,
      chainId: 1666,
    })
    const res = await fetch(`${fake.url}/fapi/v3/listenKey`, {
      method,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `${msg}&signature=${signature}`,
    })
    return {
      status: res.status,
      body: (await res.json()) as Record<string, unknown>,
      weight: Number(res.headers.get('x-mbx-used-weight-1m')),
    }
  }

  const fill = (side: 'long' | 'short', size: string) => {
    const mark = Number(exchange.quote('ETHUSDT').mark)
    exchange.place(cred.owner, {
      market: 'ETHUSDT',
      side,
      size,
      price: String(Math.round(side === 'long' ? mark * 1.05 : mark * 0.95)),
      timeInForce: 'ioc',
      reduceOnly: false,
      clientOrderId: `0x${String(++n).padStart(32, '0')}`,
    })
  }

  test('behavior: POST makes a key (the same one again, extended), PUT keeps it, DELETE ends it; weight 1 each', async () => {
    const first = await keyCall('POST')
    expect(first.status).toBe(200)
    const key = String(first.body.listenKey)
    expect(key).toMatch(/^[A-Za-z0-9]{64}$/)
    const again = await keyCall('POST')
    expect(again.body).toEqual({ listenKey: key })
    expect(again.weight).toBe(first.weight + 1)
    const kept = await keyCall('PUT')
    expect(kept).toMatchObject({ status: 200, body: {} })
    expect(kept.weight).toBe(again.weight + 1)
    const gone = await keyCall('DELETE')
    expect(gone).toMatchObject({ status: 200, body: {} })
    expect(gone.weight).toBe(kept.weight + 1)
    // closed: keeping it alive is refused, and it cannot be dialled
    expect((await keyCall('PUT')).body).toEqual({
      code: -1125,
      msg: 'This listenKey does not exist.',
    })
    const late = listen(`${fake.wsUrl}/ws/${key}`)
    await expect(late.opened).rejects.toThrow('HTTP 400')
    // a new POST makes a new key
    const next = await keyCall('POST')
    expect(next.body.listenKey).not.toBe(key)
  })

  test('error: a listenKey request signed by another key is -1022, no key made or extended', async () => {
    const bad = await keyCall('POST', generatePrivateKey())
    expect(bad).toMatchObject({
      status: 400,
      body: { code: -1022, msg: 'Signature for this request is not valid.' },
    })
    // the refused request still weighs (the gate counts on arrival)
    const ok = await keyCall('POST')
    expect(ok.weight).toBe(bad.weight + 1)
  })

  test('behavior: a fill, then a funding settlement, each push an ACCOUNT_UPDATE', async () => {
    const key = String((await keyCall('POST')).body.listenKey)
    const c = listen(`${fake.wsUrl}/ws/${key}`)
    clients.push(c.ws)
    await c.opened
    await until(() => fake.userStreamClients().length === 1)
    await new Promise((r) => setTimeout(r, 60))
    expect(c.frames).toEqual([])

    fill('long', '0.5')
    await until(() => c.frames.length >= 1)
    const order = c.frames[0] as Frame
    expect(order).toMatchObject({ e: 'ACCOUNT_UPDATE', E: t, T: t })
    expect(order.a?.m).toBe('ORDER')
    expect(order.a?.B).toHaveLength(1)
    expect(order.a?.P).toEqual([
      expect.objectContaining({
        s: 'ETHUSDT',
        pa: '0.5',
        mt: 'cross',
        ps: 'BOTH',
      }),
    ])
    expect(Number(order.a?.P[0]?.ep)).toBeGreaterThan(0)

    // the hour passes: funding settles on the cross position, balance only
    t = Date.UTC(2026, 0, 5, 11, 0, 1)
    await until(() => c.frames.length >= 2)
    const funding = c.frames[1] as Frame
    expect(funding.a?.m).toBe('FUNDING_FEE')
    expect(funding.a?.P).toEqual([])
    expect(funding.a?.B).toEqual([
      expect.objectContaining({
        a: 'USDT',
        wb: exchange.account(cred.owner).collateralUsd,
      }),
    ])
    // closing the position names it with amount 0
    fill('short', '0.5')
    await until(() => c.frames.length >= 3)
    expect(c.frames[2]?.a?.P).toEqual([
      expect.objectContaining({ s: 'ETHUSDT', pa: '0' }),
    ])
  })

  test('behavior: a key not kept alive expires after 60 min of the fake clock: listenKeyExpired, then silence', async () => {
    const key = String((await keyCall('POST')).body.listenKey)
    const c = listen(`${fake.wsUrl}/ws/${key}`)
    clients.push(c.ws)
    await c.opened
    const before = c.frames.length
    t += 60 * 60_000 + 1
    await until(() => c.frames.length > before)
    expect(c.frames.at(-1)).toEqual({ e: 'listenKeyExpired', E: t })
    // the connection stays open; a fill is not sent any more
    fill('long', '0.1')
    await new Promise((r) => setTimeout(r, 100))
    expect(c.frames.length).toBe(before + 1)
    expect(c.ws.readyState).toBe(WebSocket.OPEN)
    // and the key can no longer be dialled or kept alive
    await expect(listen(`${fake.wsUrl}/ws/${key}`).opened).rejects.toThrow(
      'HTTP 400',
    )
    expect((await keyCall('PUT')).body.code).toBe(-1125)
  })

  test('error: an unknown listenKey is refused at connect', async () => {
    const c = listen(`${fake.wsUrl}/ws/${'a'.repeat(64)}`)
    await expect(c.opened).rejects.toThrow('HTTP 400')
  })
})
