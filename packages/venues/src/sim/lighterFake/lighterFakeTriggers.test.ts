import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { cancelAllOrders } from '../../lighter/signer/cancelAllOrders.js'
import { cancelOrder } from '../../lighter/signer/cancelOrder.js'
import {
  CREATE_ORDER_TX_TYPE,
  createOrder,
} from '../../lighter/signer/createOrder.js'
import { buildL2Tx } from '../../lighter/signer/signL2Tx.js'
import type { LighterSignedTx } from '../../lighter/signer/types.js'
import {
  type LighterTestBed,
  openLighterTestBed,
} from '../testing/lighterTestBed.js'
import { type LighterTxKit, lighterTxKit } from '../testing/lighterTxKit.js'
import type { LighterFakeSnapshot } from './lighterFakeSnapshot.js'
import { type LighterFake, startLighterFake } from './startLighterFake.js'

type Json = Record<string, unknown>
type Rows = Json[]

const DAY = 86_400_000

describe('Lighter fake trigger orders (stop-loss / take-profit)', () => {
  let t = Date.UTC(2026, 0, 5, 10, 5)
  const clock = { now: () => t }
  let bed: LighterTestBed
  let kit: LighterTxKit
  let mark: number
  let priceScale: number
  let sizeScale: number
  const extra: LighterFake[] = []

  beforeEach(async () => {
    bed = await openLighterTestBed('lighter-mainnet', 83, clock)
    kit = lighterTxKit(bed, clock.now)
    mark = Number(bed.exchange.quote('ETH').mark)
    const eth = bed.fake.state.markets.find((m) => m.symbol === 'ETH')
    priceScale = 10 ** (eth?.priceDecimals ?? 0)
    sizeScale = 10 ** (eth?.sizeDecimals ?? 0)
  })
  afterEach(async () => {
    for (const f of extra.splice(0)) await f.close()
    await bed.fake.close()
  })

  const px = (factor: number) => Math.round(mark * factor * priceScale)
  const send = async (tx: LighterSignedTx, fake: LighterFake = bed.fake) => {
    const res = await fetch(`${fake.url}/api/v1/sendTx`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        tx_type: String(tx.txType),
        tx_info: tx.txInfo,
      }).toString(),
    })
    return { status: res.status, body: (await res.json()) as Json }
  }
  const read = async (path: string, fake: LighterFake = bed.fake) => {
    const res = await fetch(
      `${fake.url}/api/v1/${path}&authorization=${kit.authToken()}`,
    )
    const body = (await res.json()) as Json
    expect(body.code, JSON.stringify(body)).toBe(200)
    return body.orders as Rows
  }
  const active = (fake?: LighterFake) =>
    read(
      `accountActiveOrders?account_index=${kit.accountIndex}&market_id=0`,
      fake,
    )
  const byCoi = async (coi: number, fake?: LighterFake) =>
    (
      await read(
        `accountOrders?account_index=${kit.accountIndex}&client_order_indexes=${coi}`,
        fake,
      )
    )[0]
  /** a signed CreateOrder on ETH (market 0) */
  const order = (o: {
    coi: number
    type: number
    isAsk: boolean
    price: number
    trigger?: number
    tif?: number
    reduceOnly?: boolean
    base?: number
  }) =>
    createOrder({
      ...kit.header(),
      privateKey: kit.privateKey,
      marketIndex: 0,
      clientOrderIndex: o.coi,
      baseAmount: o.base ?? 0.1 * sizeScale,
      price: o.price,
      isAsk: o.isAsk,
      type: o.type,
      timeInForce: o.tif ?? 0,
      reduceOnly: o.reduceOnly ?? false,
      triggerPrice: o.trigger ?? 0,
      orderExpiry: o.type === 1 || (o.type === 0 && !o.tif) ? 0 : t + DAY,
    })
  /** a CreateOrder our signer would refuse to build, signed as is */
  const raw = (fields: Record<string, number>) => {
    const body = {
      MarketIndex: 0,
      ClientOrderIndex: 50,
      BaseAmount: 0.1 * sizeScale,
      Price: px(0.5),
      IsAsk: 1,
      Type: 2,
      TimeInForce: 0,
      ReduceOnly: 0,
      TriggerPrice: px(0.9),
      OrderExpiry: t + DAY,
      ...fields,
    }
    return buildL2Tx({
      txType: CREATE_ORDER_TX_TYPE,
      header: kit.header(),
      fields: Object.values(body),
      body,
      privateKey: kit.privateKey,
    })
  }
  /** opens a 0.1 ETH long with an IOC market buy */
  const openLong = async () => {
    const r = await send(
      order({ coi: 1, type: 1, isAsk: false, price: px(1.1) }),
    )
    expect(r.body.code).toBe(200)
    expect(bed.exchange.positions(bed.owner)[0]?.size).toBe('0.1')
  }

  test('error: trigger price, time in force, expiry and type rules; the nonce stays', async () => {
    const nonce = kit.header().nonce
    const code = async (fields: Record<string, number>) =>
      (await send(raw(fields))).body.code
    // a stop-loss market order is IOC
    expect(await code({ TimeInForce: 1 })).toBe(21705)
    expect(await code({ Type: 4, TimeInForce: 2 })).toBe(21705)
    // trigger types need a trigger price, plain types must not have one
    expect(await code({ TriggerPrice: 0 })).toBe(21729)
    expect(await code({ Type: 5, TimeInForce: 1, TriggerPrice: 0 })).toBe(21729)
    expect(await code({ Type: 0, TimeInForce: 1 })).toBe(21729)
    expect(await code({ Type: 1, OrderExpiry: 0 })).toBe(21729)
    // they wait until an expiry, which must lie ahead
    expect(await code({ OrderExpiry: 0 })).toBe(21711)
    expect(await code({ Type: 3, TimeInForce: 1, OrderExpiry: t - 1 })).toBe(
      21711,
    )
    // TWAP and unknown types are not taken
    expect(await code({ Type: 6, TimeInForce: 1, TriggerPrice: 0 })).toBe(21710)
    expect(await code({ Type: 9 })).toBe(21710)
    const refused = await send(raw({ TimeInForce: 1 }))
    expect(refused.status).toBe(400)
    expect(refused.body.message).toBe('invalid OrderTimeInForce')
    expect(kit.header().nonce).toBe(nonce)
    expect(await active()).toEqual([])
  })

  test('behavior: a stop-loss waits pending off the book, then fires as an IOC when the mark falls to it', async () => {
    await openLong()
    const sl = order({
      coi: 2,
      type: 2,
      isAsk: true,
      price: px(0.5),
      trigger: px(0.9),
      reduceOnly: true,
    })
    expect((await send(sl)).body.code).toBe(200)
    const [waiting] = await active()
    expect(waiting).toMatchObject({
      client_order_index: 2,
      type: 'stop-loss',
      status: 'pending',
      trigger_status: 'mark-price',
      time_in_force: 'immediate-or-cancel',
      trigger_price: (px(0.9) / priceScale).toFixed(Math.log10(priceScale)),
      trigger_time: 0,
      is_ask: true,
    })
    // not on the engine: nothing rests there and the position is intact
    expect(bed.exchange.openOrders(bed.owner)).toEqual([])

    // above the trigger: still waiting
    bed.exchange.setMark('ETH', String(mark * 0.95))
    expect((await byCoi(2))?.status).toBe('pending')

    bed.exchange.setMark('ETH', String(mark * 0.88))
    const fired = await byCoi(2)
    expect(fired).toMatchObject({
      type: 'stop-loss',
      status: 'filled',
      trigger_status: 'na',
      trigger_time: Math.floor(t / 1000),
      order_index: waiting?.order_index,
    })
    expect(bed.exchange.positions(bed.owner)).toEqual([])
    expect(await active()).toEqual([])
  })

  test('behavior: a buy stop-loss limit fires when the mark rises to it and rests as a limit', async () => {
    const sll = order({
      coi: 3,
      type: 3,
      isAsk: false,
      price: px(0.7),
      trigger: px(1.1),
      tif: 1,
    })
    expect((await send(sll)).body.code).toBe(200)
    bed.exchange.setMark('ETH', String(mark * 0.8))
    expect((await byCoi(3))?.status).toBe('pending')
    bed.exchange.setMark('ETH', String(mark * 1.12))
    const [resting] = await active()
    expect(resting).toMatchObject({
      client_order_index: 3,
      type: 'stop-loss-limit',
      status: 'open',
      trigger_status: 'na',
      time_in_force: 'good-till-time',
    })
    expect(bed.exchange.openOrders(bed.owner).length).toBe(1)
  })

  test('behavior: take-profit fires the other way; a sell take-profit waits while the mark falls', async () => {
    await openLong()
    const tp = order({
      coi: 4,
      type: 4,
      isAsk: true,
      price: px(0.9),
      trigger: px(1.1),
      reduceOnly: true,
    })
    expect((await send(tp)).body.code).toBe(200)
    bed.exchange.setMark('ETH', String(mark * 0.8))
    expect((await byCoi(4))?.status).toBe('pending')
    bed.exchange.setMark('ETH', String(mark * 1.15))
    expect(await byCoi(4)).toMatchObject({
      type: 'take-profit',
      status: 'filled',
    })
    expect(bed.exchange.positions(bed.owner)).toEqual([])
  })

  test('behavior: cancel by order index and cancel-all drop waiting trigger orders', async () => {
    const tpl = order({
      coi: 5,
      type: 5,
      isAsk: true,
      price: px(1.2),
      trigger: px(1.2),
      tif: 1,
    })
    expect((await send(tpl)).body.code).toBe(200)
    const index = (await byCoi(5))?.order_index as number
    const cancel = cancelOrder({
      ...kit.header(),
      privateKey: kit.privateKey,
      marketIndex: 0,
      index,
    })
    expect((await send(cancel)).body.code).toBe(200)
    expect((await byCoi(5))?.status).toBe('canceled')
    expect(await active()).toEqual([])

    const sl = order({
      coi: 6,
      type: 2,
      isAsk: true,
      price: px(0.5),
      trigger: px(0.9),
    })
    expect((await send(sl)).body.code).toBe(200)
    expect((await active()).length).toBe(1)
    const all = cancelAllOrders({
      ...kit.header(),
      privateKey: kit.privateKey,
      timeInForce: 0,
      time: 0,
    })
    expect((await send(all)).body.code).toBe(200)
    expect((await byCoi(6))?.status).toBe('canceled')
    // a canceled trigger order does not fire later
    bed.exchange.setMark('ETH', String(mark * 0.5))
    expect((await byCoi(6))?.status).toBe('canceled')
    expect(bed.exchange.openOrders(bed.owner)).toEqual([])
  })

  test('behavior: a waiting trigger order past its expiry is canceled-expired', async () => {
    const sl = order({
      coi: 7,
      type: 2,
      isAsk: true,
      price: px(0.5),
      trigger: px(0.9),
    })
    expect((await send(sl)).body.code).toBe(200)
    t += DAY + 1
    expect((await byCoi(7))?.status).toBe('canceled-expired')
    t -= DAY + 1
  })

  test('behavior: the stream tick fires a waiting order between requests', async () => {
    await bed.fake.close()
    bed = await openLighterTestBed('lighter-mainnet', 83, clock, {
      accountStreamIntervalMs: 20,
    })
    kit = lighterTxKit(bed, clock.now)
    const sl = order({
      coi: 10,
      type: 2,
      isAsk: true,
      price: px(0.5),
      trigger: px(0.9),
    })
    expect((await send(sl)).body.code).toBe(200)
    bed.exchange.setMark('ETH', String(mark * 0.85))
    // no request reaches the fake: only the tick can fire it
    await new Promise((r) => setTimeout(r, 200))
    expect(bed.fake.state.waitingTriggers.size).toBe(0)
    const fired = bed.fake.state.orders.get(`${kit.accountIndex}:10`)
    expect(fired?.trigger?.firedAt).toBe(t)
  })

  test('behavior: a waiting trigger order survives a snapshot and fires in the restored fake', async () => {
    await openLong()
    const sl = order({
      coi: 8,
      type: 2,
      isAsk: true,
      price: px(0.5),
      trigger: px(0.9),
      reduceOnly: true,
    })
    expect((await send(sl)).body.code).toBe(200)
    const saved = JSON.parse(JSON.stringify(bed.fake.toSnapshot()))
    // the old fake shares the engine: its copy must not fire as well
    const index = (await byCoi(8))?.order_index as number
    const cancel = cancelOrder({
      ...kit.header(),
      privateKey: kit.privateKey,
      marketIndex: 0,
      index,
    })
    expect((await send(cancel)).body.code).toBe(200)
    const restored = await startLighterFake({
      exchange: bed.exchange,
      venue: 'lighter-mainnet',
      now: clock.now,
      restore: saved,
    })
    extra.push(restored)
    expect((await byCoi(8, restored))?.status).toBe('pending')
    expect((await active(restored)).length).toBe(1)
    bed.exchange.setMark('ETH', String(mark * 0.85))
    expect(await byCoi(8, restored)).toMatchObject({
      status: 'filled',
      trigger_status: 'na',
    })
    expect(bed.exchange.positions(bed.owner)).toEqual([])
    expect(restored.state.waitingTriggers.size).toBe(0)
  })

  test('behavior: a snapshot from before trigger orders (no trigger field) restores', async () => {
    const limit = order({
      coi: 9,
      type: 0,
      isAsk: false,
      price: px(0.5),
      tif: 1,
    })
    expect((await send(limit)).body.code).toBe(200)
    const saved = JSON.parse(
      JSON.stringify(bed.fake.toSnapshot()),
    ) as LighterFakeSnapshot
    for (const o of saved.orders) expect('trigger' in o).toBe(false)
    const restored = await startLighterFake({
      exchange: bed.exchange,
      venue: 'lighter-mainnet',
      now: clock.now,
      restore: saved,
    })
    extra.push(restored)
    expect(await byCoi(9, restored)).toMatchObject({
      type: 'limit',
      status: 'open',
      trigger_price: '0',
      trigger_status: 'na',
    })
    expect(restored.state.waitingTriggers.size).toBe(0)
  })
})
