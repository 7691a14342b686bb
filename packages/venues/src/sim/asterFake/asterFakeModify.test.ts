import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { signAsterMessage } from '../../aster/signing/asterMessage.js'
import { formEncode } from '../../aster/signing/formEncode.js'
import { createSimExchange } from '../simExchange.js'
import type { AsterFakeSnapshot } from './asterFakeSnapshot.js'
import { type AsterFake, startAsterFake } from './startAsterFake.js'

type Json = Record<string, unknown> & { code?: number; msg?: string }

/** The keys of the doc's Modify Order answer (futures v3 doc example). */
const DOC_KEYS = [
  'avgPrice',
  'clientOrderId',
  'closePosition',
  'cumQty',
  'cumQuote',
  'executedQty',
  'orderId',
  'origQty',
  'origType',
  'positionSide',
  'price',
  'priceProtect',
  'reduceOnly',
  'side',
  'status',
  'stopPrice',
  'symbol',
  'timeInForce',
  'type',
  'updateTime',
  'workingType',
]

describe('PUT /fapi/v3/order (Modify Order) on the Aster fake', () => {
  // a still clock: the engine takes no step, its book stays as read
  const t0 = Date.now()
  const now = () => t0
  const exchange = createSimExchange({
    venue: 'aster',
    seed: 17,
    clock: { now },
  })
  let fake: AsterFake
  beforeAll(async () => {
    // one window that never rolls: the used-weight headers only add up
    fake = await startAsterFake({
      exchange,
      now,
      port: 0,
      rateLimits: { enforce: false, now: () => 0 },
    })
    exchange.setMark('ETHUSDT', '3500')
  })
  afterAll(() => fake.close())

  /** A funded user whose approved agent signs every request. */
  function trader(usd = 1_000_000) {
    const user = privateKeyToAccount(generatePrivateKey()).address
    const owner = user.toLowerCase()
    const key = generatePrivateKey()
    const signer = privateKeyToAccount(key).address
    exchange.faucet(owner, usd)
    fake.seedAgent(user, signer)
    let n = 0
    /** The user's requests to `on` (another fake restored from this one). */
    const at = (on: AsterFake) => {
      async function call(
        method: string,
        path: string,
        params: readonly (readonly [string, string])[],
      ) {
        const msg = formEncode([
          ...params,
          ['nonce', String(t0 * 1000 + ++n)],
          ['user', owner],
          ['signer', signer],
        ])
        const signature = await signAsterMessage({
          privateKey: key,
          msg,
          chainId: 1666,
        })
        const signed = `${msg}&signature=${signature}`
        const res = await fetch(
          `${on.url}${path}${method === 'GET' ? `?${signed}` : ''}`,
          method === 'GET'
            ? { method }
            : {
                method,
                headers: {
                  'content-type': 'application/x-www-form-urlencoded',
                },
                body: signed,
              },
        )
        return {
          status: res.status,
          body: (await res.json()) as Json,
          weight: Number(res.headers.get('x-mbx-used-weight-1m')),
          orders: res.headers.get('x-mbx-order-count-1m'),
        }
      }
      const place = async (params: Record<string, string>) => {
        const r = await call(
          'POST',
          '/fapi/v3/order',
          Object.entries({ symbol: 'ETHUSDT', type: 'LIMIT', ...params }),
        )
        expect(r.body.code).toBeUndefined()
        return r.body as Json & { orderId: number; clientOrderId: string }
      }
      const modify = (params: Record<string, string>) =>
        call(
          'PUT',
          '/fapi/v3/order',
          Object.entries({ symbol: 'ETHUSDT', ...params }),
        )
      const read = async (orderId: number) =>
        (
          await call('GET', '/fapi/v3/order', [
            ['symbol', 'ETHUSDT'],
            ['orderId', String(orderId)],
          ])
        ).body
      return { owner, call, place, modify, read }
    }
    return { ...at(fake), at }
  }

  const book = () => {
    const b = exchange.book('ETHUSDT')
    return {
      bid: Number(b.bids[0]?.price),
      ask: Number(b.asks[0]?.price),
      askSize: Number(b.asks[0]?.size),
    }
  }

  test('behavior: by orderId: the resting order at the new price and quantity, same ids, the doc answer; weight 1 and one order counted', async () => {
    const t = trader()
    const low = (book().bid - 50).toFixed(2)
    const o = await t.place({
      side: 'BUY',
      timeInForce: 'GTC',
      quantity: '0.5',
      price: low,
      newClientOrderId: 'mod-a',
    })
    const before = await t.call('GET', '/fapi/v3/openOrders', [
      ['symbol', 'ETHUSDT'],
    ])
    const newPrice = (book().bid - 40).toFixed(2)
    const r = await t.modify({
      orderId: String(o.orderId),
      quantity: '0.7',
      price: newPrice,
    })
    expect(r.status).toBe(200)
    expect(Object.keys(r.body).sort()).toEqual(DOC_KEYS)
    expect(r.body).toMatchObject({
      orderId: o.orderId,
      clientOrderId: 'mod-a',
      symbol: 'ETHUSDT',
      status: 'NEW',
      price: newPrice,
      origQty: '0.7',
      executedQty: '0',
      side: 'BUY',
      type: 'LIMIT',
      origType: 'LIMIT',
      timeInForce: 'GTC',
      positionSide: 'BOTH',
    })
    // REQUEST_WEIGHT 1 (the doc's "Weight: 1"), one more in ORDERS
    expect(r.weight - before.weight).toBe(1)
    expect(r.orders).toBe('2')
    expect(await t.read(o.orderId)).toMatchObject({
      orderId: o.orderId,
      clientOrderId: 'mod-a',
      price: newPrice,
      origQty: '0.7',
      status: 'NEW',
      time: o.updateTime,
    })
    // the engine holds one live order for it: 0.7 at the new price
    const open = exchange.openOrders(t.owner)
    expect(open).toHaveLength(1)
    expect(open[0]).toMatchObject({ size: '0.7', state: 'open' })
    const listed = await t.call('GET', '/fapi/v3/openOrders', [
      ['symbol', 'ETHUSDT'],
    ])
    expect(listed.body).toEqual([
      expect.objectContaining({ orderId: o.orderId, price: newPrice }),
    ])
  })

  test('behavior: by origClientOrderId; orderId wins when both are sent', async () => {
    const t = trader()
    const bid = book().bid
    const a = await t.place({
      side: 'BUY',
      timeInForce: 'GTC',
      quantity: '0.1',
      price: (bid - 60).toFixed(2),
      newClientOrderId: 'mod-b1',
    })
    const b = await t.place({
      side: 'BUY',
      timeInForce: 'GTC',
      quantity: '0.1',
      price: (bid - 61).toFixed(2),
      newClientOrderId: 'mod-b2',
    })
    const byCloid = await t.modify({
      origClientOrderId: 'mod-b1',
      quantity: '0.2',
      price: (bid - 62).toFixed(2),
    })
    expect(byCloid.body).toMatchObject({
      orderId: a.orderId,
      origQty: '0.2',
      price: (bid - 62).toFixed(2),
    })
    const both = await t.modify({
      orderId: String(b.orderId),
      origClientOrderId: 'mod-b1',
      quantity: '0.3',
      price: (bid - 63).toFixed(2),
    })
    expect(both.body).toMatchObject({ orderId: b.orderId, origQty: '0.3' })
    expect(await t.read(a.orderId)).toMatchObject({ origQty: '0.2' })
  })

  test('behavior: fills before and after a modify add up; userTrades lists both under the orderId; a quantity not above the fills cancels it', async () => {
    const t = trader()
    const { ask, askSize } = book()
    // takes the best ask, rests the rest: partially filled
    const qty = (askSize + 0.1).toFixed(3)
    const o = await t.place({
      side: 'BUY',
      timeInForce: 'GTC',
      quantity: qty,
      price: ask.toFixed(2),
      newOrderRespType: 'RESULT',
    })
    expect(o.status).toBe('PARTIALLY_FILLED')
    const first = Number(o.executedQty)
    expect(first).toBeGreaterThan(0)
    const low = (book().bid - 30).toFixed(2)
    const total = (first + 0.5).toFixed(3)
    const moved = await t.modify({
      orderId: String(o.orderId),
      quantity: total,
      price: low,
    })
    expect(moved.body).toMatchObject({
      status: 'PARTIALLY_FILLED',
      origQty: total,
      executedQty: o.executedQty,
      price: low,
    })
    // the engine order behind it now rests for what is left
    expect(exchange.openOrders(t.owner)).toEqual([
      expect.objectContaining({ size: '0.5', filledBase: '0' }),
    ])
    // up to the new best ask, for more than it holds: takes it, rests 0.2
    const { ask: ask2, askSize: size2 } = book()
    const bigger = (first + size2 + 0.2).toFixed(3)
    const up = await t.modify({
      orderId: String(o.orderId),
      quantity: bigger,
      price: ask2.toFixed(2),
    })
    expect(up.body).toMatchObject({
      status: 'PARTIALLY_FILLED',
      origQty: bigger,
    })
    const executed = Number(up.body.executedQty)
    expect(executed).toBeCloseTo(first + size2, 6)
    const trades = await t.call('GET', '/fapi/v3/userTrades', [
      ['symbol', 'ETHUSDT'],
      ['orderId', String(o.orderId)],
    ])
    const rows = trades.body as unknown as { qty: string; orderId: number }[]
    expect(rows.length).toBeGreaterThanOrEqual(2)
    expect(rows.every((r) => r.orderId === o.orderId)).toBe(true)
    expect(rows.reduce((s, r) => s + Number(r.qty), 0)).toBeCloseTo(executed, 6)
    const fills = exchange.fills(t.owner, 0)
    const quote = fills.reduce(
      (s, f) => s + Number(f.price) * Number(f.size),
      0,
    )
    expect(Number(up.body.avgPrice)).toBeCloseTo(quote / executed, 4)
    // a quantity not above what filled: the amendment cancels it
    const cut = await t.modify({
      orderId: String(o.orderId),
      quantity: up.body.executedQty as string,
      price: low,
    })
    expect(cut.status).toBe(200)
    expect(cut.body).toMatchObject({
      status: 'CANCELED',
      executedQty: up.body.executedQty,
      origQty: bigger,
    })
    expect(exchange.openOrders(t.owner)).toEqual([])
    expect((await t.read(o.orderId)).status).toBe('CANCELED')
  })

  test('error: each refusal answers the venue code and leaves the order as it was', async () => {
    const t = trader()
    const bid = book().bid
    const price = (bid - 70).toFixed(2)
    const o = await t.place({
      side: 'BUY',
      timeInForce: 'GTC',
      quantity: '0.2',
      price,
      newClientOrderId: 'mod-r',
    })
    const id = String(o.orderId)
    const cases: [Record<string, string>, number, string][] = [
      [
        { orderId: '987654321', quantity: '0.2', price },
        -2013,
        'Order does not exist.',
      ],
      [
        { origClientOrderId: 'nope', quantity: '0.2', price },
        -2013,
        'Order does not exist.',
      ],
      [
        { orderId: id, price },
        -1102,
        "Mandatory parameter 'quantity' was not sent, was empty/null, or malformed.",
      ],
      [
        { orderId: id, quantity: '0.3' },
        -1102,
        "Mandatory parameter 'price' was not sent, was empty/null, or malformed.",
      ],
      [
        { orderId: id, quantity: '0.2', price: `${price}1` },
        -1111,
        'Precision is over the maximum defined for this asset.',
      ],
      [
        { orderId: id, quantity: '0', price },
        -4003,
        'Quantity less than zero.',
      ],
      [
        { orderId: id, quantity: '0.2', price: '5000.00' },
        -4016,
        'Price is higher than mark price multiplier cap.',
      ],
      [
        { orderId: id, quantity: '0.001', price },
        -4164,
        "Order's notional must be no smaller than 5 (unless you choose reduce only)",
      ],
      [
        { orderId: id, quantity: '0.2', price },
        -5027,
        'No need to modify the order.',
      ],
    ]
    for (const [params, code, msg] of cases) {
      const r = await t.modify(params)
      expect({ params, status: r.status, body: r.body }).toEqual({
        params,
        status: 400,
        body: { code, msg },
      })
    }
    expect(await t.read(o.orderId)).toMatchObject({
      price,
      origQty: '0.2',
      status: 'NEW',
    })
    expect(exchange.openOrders(t.owner)).toEqual([
      expect.objectContaining({ clientOrderId: 'mod-r', size: '0.2' }),
    ])
  })

  test('error: final orders are -2013; a waiting STOP is -5025; nothing changes', async () => {
    const t = trader()
    const { bid, ask } = book()
    const filled = await t.place({
      side: 'BUY',
      timeInForce: 'IOC',
      quantity: '0.01',
      price: (ask + 5).toFixed(2),
    })
    const cancelled = await t.place({
      side: 'BUY',
      timeInForce: 'GTC',
      quantity: '0.01',
      price: (bid - 80).toFixed(2),
    })
    await t.call('DELETE', '/fapi/v3/order', [
      ['symbol', 'ETHUSDT'],
      ['orderId', String(cancelled.orderId)],
    ])
    for (const o of [filled, cancelled]) {
      const r = await t.modify({
        orderId: String(o.orderId),
        quantity: '0.02',
        price: (bid - 90).toFixed(2),
      })
      expect(r.body).toEqual({ code: -2013, msg: 'Order does not exist.' })
    }
    expect((await t.read(filled.orderId)).status).toBe('FILLED')
    expect((await t.read(cancelled.orderId)).status).toBe('CANCELED')
    const stop = await t.place({
      type: 'STOP',
      side: 'BUY',
      quantity: '0.01',
      price: '3800.00',
      stopPrice: '3790',
    })
    const r = await t.modify({
      orderId: String(stop.orderId),
      quantity: '0.02',
      price: '3810.00',
    })
    expect(r.body).toEqual({
      code: -5025,
      msg: 'Only limit order is supported.',
    })
    expect(await t.read(stop.orderId)).toMatchObject({
      status: 'NEW',
      price: '3800.00',
      origQty: '0.01',
    })
  })

  test('error: margin the engine refuses is -2019 and the order stays at its price and quantity', async () => {
    const t = trader(200)
    const price = (book().bid - 100).toFixed(2)
    const o = await t.place({
      side: 'BUY',
      timeInForce: 'GTC',
      quantity: '0.01',
      price,
    })
    const r = await t.modify({
      orderId: String(o.orderId),
      quantity: '50',
      price,
    })
    expect(r.body).toEqual({ code: -2019, msg: 'Margin is insufficient.' })
    expect(await t.read(o.orderId)).toMatchObject({
      status: 'NEW',
      price,
      origQty: '0.01',
    })
    expect(exchange.openOrders(t.owner)).toEqual([
      expect.objectContaining({ size: '0.01', state: 'open' }),
    ])
  })

  test('behavior: a post-only (GTX) order moved to a price that would take is -5022 and cancelled', async () => {
    const t = trader()
    const { bid, ask } = book()
    const o = await t.place({
      side: 'BUY',
      timeInForce: 'GTX',
      quantity: '0.1',
      price: (bid - 10).toFixed(2),
    })
    const ok = await t.modify({
      orderId: String(o.orderId),
      quantity: '0.1',
      price: (bid - 5).toFixed(2),
    })
    expect(ok.body).toMatchObject({ status: 'NEW', timeInForce: 'GTX' })
    const r = await t.modify({
      orderId: String(o.orderId),
      quantity: '0.1',
      price: ask.toFixed(2),
    })
    expect(r.body).toEqual({
      code: -5022,
      msg: 'Due to the order could not be executed as maker, the Post Only order will be rejected.',
    })
    expect(await t.read(o.orderId)).toMatchObject({
      status: 'CANCELED',
      price: (bid - 5).toFixed(2),
      executedQty: '0',
    })
    expect(exchange.openOrders(t.owner)).toEqual([])
    expect(exchange.positions(t.owner)).toEqual([])
  })

  test('behavior: a modified order restores from a snapshot at its new price and quantity; the 10000th modify is the last', async () => {
    const t = trader()
    const bid = book().bid
    const o = await t.place({
      side: 'SELL',
      timeInForce: 'GTC',
      quantity: '0.3',
      price: (bid + 200).toFixed(2),
    })
    const price = (bid + 150).toFixed(2)
    const moved = await t.modify({
      orderId: String(o.orderId),
      quantity: '0.4',
      price,
    })
    expect(moved.body.status).toBe('NEW')
    const saved = JSON.parse(
      JSON.stringify(fake.toSnapshot()),
    ) as AsterFakeSnapshot
    const restored = await startAsterFake({
      exchange,
      now,
      port: 0,
      restore: saved,
    })
    try {
      expect(await t.at(restored).read(o.orderId)).toMatchObject({
        orderId: o.orderId,
        clientOrderId: o.clientOrderId,
        price,
        origQty: '0.4',
        status: 'NEW',
      })
    } finally {
      await restored.close()
    }
    // the same order as if modified 9999 times: one more, then no more
    const worn = await startAsterFake({
      exchange,
      now,
      port: 0,
      restore: {
        ...saved,
        orders: saved.orders.map((x) =>
          x.orderId === o.orderId ? { ...x, modifies: 9_999 } : x,
        ),
      },
    })
    try {
      const w = t.at(worn)
      const last = await w.modify({
        orderId: String(o.orderId),
        quantity: '0.5',
        price,
      })
      expect(last.body).toMatchObject({ origQty: '0.5', status: 'NEW' })
      const refused = await w.modify({
        orderId: String(o.orderId),
        quantity: '0.6',
        price,
      })
      expect(refused.body).toEqual({
        code: -5026,
        msg: 'Exceed maximum modify order limit.',
      })
      expect(await w.read(o.orderId)).toMatchObject({ origQty: '0.5' })
      expect(exchange.openOrders(t.owner)).toEqual([
        expect.objectContaining({ size: '0.5', state: 'open' }),
      ])
    } finally {
      await worn.close()
    }
  })
})
