import { afterEach, describe, expect, test } from 'vitest'
import {
  HL_KIT_USER,
  type HlFakeTestKit,
  hlFakeTestKit,
} from './hlFakeTestKit.js'

const CLOID_1 = `0x${'0'.repeat(31)}1`
const CLOID_2 = `0x${'0'.repeat(31)}2`

let kit: HlFakeTestKit | undefined
afterEach(async () => {
  await kit?.fake.close()
  kit = undefined
})

/** A wire order on BTC (asset 0), key order as the venue hashes it. */
const wire = (o: {
  b?: boolean
  p: string
  s?: string
  r?: boolean
  tif?: string
  c?: string
}) => ({
  a: 0,
  b: o.b ?? true,
  p: o.p,
  s: o.s ?? '0.001',
  r: o.r ?? false,
  t: { limit: { tif: o.tif ?? 'Gtc' } },
  ...(o.c ? { c: o.c } : {}),
})

const order = (...orders: object[]) => ({
  type: 'order',
  orders,
  grouping: 'na',
})

async function rest(k: HlFakeTestKit, o: Parameters<typeof wire>[0]) {
  const res = await k.l1(order(wire(o)))
  return res.response.data.statuses[0].resting.oid as number
}

const status = async (k: HlFakeTestKit, oid: number | string) =>
  (await k.info({ type: 'orderStatus', user: HL_KIT_USER, oid })).body

describe('hlExchange actions', () => {
  test('behavior: cancel by oid, then again is refused per cancel', async () => {
    kit = await hlFakeTestKit()
    const oid = await rest(kit, { p: '50000' })
    const cancel = { type: 'cancel', cancels: [{ a: 0, o: oid }] }
    expect(await kit.l1(cancel)).toEqual({
      status: 'ok',
      response: { type: 'cancel', data: { statuses: ['success'] } },
    })
    expect((await status(kit, oid)).order.status).toBe('canceled')
    expect((await kit.l1(cancel)).response.data.statuses).toEqual([
      { error: 'Order was never placed, already canceled, or filled.' },
    ])
    // the wrong asset does not cancel another market's order
    const other = await rest(kit, { p: '50000' })
    const wrong = await kit.l1({
      type: 'cancel',
      cancels: [{ a: 1, o: other }],
    })
    expect(wrong.response.data.statuses[0]).toHaveProperty('error')
    expect((await status(kit, other)).order.status).toBe('open')
  })

  test('behavior: orderStatus and frontendOpenOrders report the real tif, reduce-only and type', async () => {
    kit = await hlFakeTestKit()
    await kit.l1(order(wire({ p: '120000', s: '0.01', tif: 'Ioc' })))
    const alo = await rest(kit, { p: '50000', tif: 'Alo', c: CLOID_1 })
    const ro = await rest(kit, { b: false, p: '150000', r: true })
    const st = (await status(kit, CLOID_1)).order.order
    expect(st).toMatchObject({
      oid: alo,
      tif: 'Alo',
      reduceOnly: false,
      orderType: 'Limit',
      isTrigger: false,
      triggerCondition: 'N/A',
      cloid: CLOID_1,
    })
    expect((await status(kit, ro)).order.order).toMatchObject({
      tif: 'Gtc',
      reduceOnly: true,
      side: 'A',
    })
    const front = (
      await kit.info({ type: 'frontendOpenOrders', user: HL_KIT_USER })
    ).body
    expect(front).toHaveLength(2)
    expect(front.find((o: { oid: number }) => o.oid === ro)).toMatchObject({
      reduceOnly: true,
      orderType: 'Limit',
      tif: 'Gtc',
      children: [],
      isPositionTpsl: false,
      cloid: null,
    })
    const short = (await kit.info({ type: 'openOrders', user: HL_KIT_USER }))
      .body
    expect(short.find((o: { oid: number }) => o.oid === ro)).toEqual({
      coin: 'BTC',
      side: 'A',
      limitPx: '150000',
      sz: '0.001',
      oid: ro,
      timestamp: expect.any(Number),
      origSz: '0.001',
      reduceOnly: true,
    })
  })

  test('behavior: modify replaces a resting order; a dead one cannot be modified', async () => {
    kit = await hlFakeTestKit()
    const oid = await rest(kit, { p: '50000', c: CLOID_1 })
    const res = await kit.l1({
      type: 'modify',
      oid,
      order: wire({ p: '51000', s: '0.002', c: CLOID_1 }),
    })
    expect(res).toEqual({ status: 'ok', response: { type: 'default' } })
    const now = (await status(kit, CLOID_1)).order
    expect(now.status).toBe('open')
    expect(now.order).toMatchObject({ limitPx: '51000', origSz: '0.002' })
    expect((await status(kit, oid)).order.status).toBe('canceled')
    const open = (await kit.info({ type: 'openOrders', user: HL_KIT_USER }))
      .body
    expect(open).toHaveLength(1)
    expect(open[0]).toMatchObject({ limitPx: '51000', cloid: CLOID_1 })
    expect(
      await kit.l1({ type: 'modify', oid, order: wire({ p: '52000' }) }),
    ).toEqual({
      status: 'err',
      response: 'Cannot modify canceled or filled order',
    })
  })

  test('behavior: historicalOrders lists every order, newest first, with its status', async () => {
    kit = await hlFakeTestKit()
    const first = await rest(kit, { p: '50000' })
    kit.advance(1000)
    const second = await rest(kit, { p: '50500', c: CLOID_2 })
    await kit.l1({ type: 'cancel', cancels: [{ a: 0, o: first }] })
    const list = (
      await kit.info({ type: 'historicalOrders', user: HL_KIT_USER })
    ).body
    expect(
      list.map((h: { order: { oid: number }; status: string }) => [
        h.order.oid,
        h.status,
      ]),
    ).toEqual([
      [second, 'open'],
      [first, 'canceled'],
    ])
    expect(list[0].order).toMatchObject({ cloid: CLOID_2, orderType: 'Limit' })
  })

  test('behavior: batchModify answers one order status per modify', async () => {
    kit = await hlFakeTestKit()
    const a = await rest(kit, { p: '50000', c: CLOID_1 })
    await rest(kit, { p: '50500', c: CLOID_2 })
    const res = await kit.l1({
      type: 'batchModify',
      modifies: [
        { oid: a, order: wire({ p: '49000' }) },
        { oid: CLOID_2, order: wire({ p: '49500', c: CLOID_2 }) },
        { oid: 999_999, order: wire({ p: '49500' }) },
      ],
    })
    expect(res.status).toBe('ok')
    expect(res.response.type).toBe('order')
    const [first, second, third] = res.response.data.statuses
    expect(first.resting.oid).not.toBe(a)
    expect(second.resting).toMatchObject({ cloid: CLOID_2 })
    expect(third).toEqual({ error: 'Cannot modify canceled or filled order' })
    const prices = (
      await kit.info({ type: 'openOrders', user: HL_KIT_USER })
    ).body.map((o: { limitPx: string }) => o.limitPx)
    expect(prices.sort()).toEqual(['49000', '49500'])
  })

  test('behavior: updateLeverage is kept per coin, shown and enforced', async () => {
    kit = await hlFakeTestKit()
    const lev = (isCross: boolean, leverage: number) =>
      kit?.l1({ type: 'updateLeverage', asset: 0, isCross, leverage })
    expect(await lev(true, 1)).toEqual({
      status: 'ok',
      response: { type: 'default' },
    })
    // $100,000 at 1x cannot carry 1.5 BTC (about $150,000 at the limit)
    const big = wire({ p: '100000', s: '1.5' })
    expect((await kit.l1(order(big))).response.data.statuses[0]).toEqual({
      error: 'Insufficient margin to place order.',
    })
    expect(await lev(false, 3)).toEqual({
      status: 'ok',
      response: { type: 'default' },
    })
    const asset = (
      await kit.info({
        type: 'activeAssetData',
        user: HL_KIT_USER,
        coin: 'BTC',
      })
    ).body
    expect(asset.leverage).toMatchObject({ type: 'isolated', value: 3 })
    expect((await kit.l1(order(big))).response.data.statuses[0]).toHaveProperty(
      'resting',
    )
    expect(await lev(true, 41)).toEqual({
      status: 'err',
      response: 'Invalid leverage value.',
    })
    // a fill makes a position: its leverage shows, the mode is locked
    await kit.l1(order(wire({ p: '120000', s: '0.01', tif: 'Ioc' })))
    const ch = (
      await kit.info({ type: 'clearinghouseState', user: HL_KIT_USER })
    ).body
    expect(ch.assetPositions[0].position.leverage).toMatchObject({
      type: 'isolated',
      value: 3,
    })
    expect(await lev(true, 3)).toEqual({
      status: 'err',
      response: 'Cannot switch leverage type with open position.',
    })
    // ETH keeps its own default
    const eth = (
      await kit.info({
        type: 'activeAssetData',
        user: HL_KIT_USER,
        coin: 'ETH',
      })
    ).body
    expect(eth.leverage).toEqual({ type: 'cross', value: 10 })
  })

  test('behavior: updateIsolatedMargin moves margin into an isolated position', async () => {
    kit = await hlFakeTestKit()
    const add = (ntli: number) =>
      kit?.l1({ type: 'updateIsolatedMargin', asset: 0, isBuy: true, ntli })
    const cross = await add(1_000_000)
    expect(cross.status).toBe('err')
    await kit.l1({
      type: 'updateLeverage',
      asset: 0,
      isCross: false,
      leverage: 5,
    })
    await kit.l1(order(wire({ p: '120000', s: '0.01', tif: 'Ioc' })))
    const before = (
      await kit.info({ type: 'clearinghouseState', user: HL_KIT_USER })
    ).body
    expect(await add(100_000_000)).toEqual({
      status: 'ok',
      response: { type: 'default' },
    })
    const after = (
      await kit.info({ type: 'clearinghouseState', user: HL_KIT_USER })
    ).body
    // $100 left the cross pool for the position
    expect(
      Number(before.withdrawable) - Number(after.withdrawable),
    ).toBeCloseTo(100, 4)
    const pos = (ch: { assetPositions: { position: Record<string, any> }[] }) =>
      ch.assetPositions[0]?.position ?? {}
    expect(
      Number(pos(after).marginUsed) - Number(pos(before).marginUsed),
    ).toBeCloseTo(100, 4)
    expect(Number(pos(after).leverage.rawUsd)).toBeCloseTo(
      Number(pos(after).marginUsed) -
        Number(pos(after).szi) * Number(pos(after).entryPx),
      4,
    )
    // more than the position may give back is refused
    expect((await add(-1_000_000_000)).status).toBe('err')
  })

  test('behavior: noop spends the nonce and answers default', async () => {
    kit = await hlFakeTestKit()
    expect(await kit.l1({ type: 'noop' })).toEqual({
      status: 'ok',
      response: { type: 'default' },
    })
    const limit = (await kit.info({ type: 'userRateLimit', user: HL_KIT_USER }))
      .body
    expect(limit.nRequestsUsed).toBe(1)
  })

  test('error: malformed actions are answered, never a crash', async () => {
    kit = await hlFakeTestKit()
    const bad = [
      { type: 'order', orders: [null], grouping: 'na' },
      {
        type: 'order',
        orders: [{ a: 0, b: true, p: '1', s: '1', r: false, t: 'x' }],
        grouping: 'na',
      },
      { type: 'cancel', cancels: [] },
      { type: 'cancel', cancels: [7] },
      { type: 'cancelByCloid', cancels: [{ asset: 0, cloid: 5 }] },
      { type: 'modify', oid: 'nope', order: {} },
      { type: 'modify', oid: 1 },
      { type: 'batchModify', modifies: [null] },
      { type: 'updateLeverage', asset: 0, isCross: 'yes', leverage: 3 },
      { type: 'updateLeverage', asset: 0, isCross: true, leverage: 0 },
      { type: 'updateLeverage', asset: 99, isCross: true, leverage: 3 },
      { type: 'updateIsolatedMargin', asset: 0, isBuy: true, ntli: 1.5 },
      {
        type: 'order',
        orders: [
          {
            a: 0,
            b: true,
            p: '50000',
            s: '0.001',
            r: false,
            t: { limit: { tif: 'Gtc' } },
          },
        ],
        grouping: 'na',
        builder: { b: 'x', f: 1 },
      },
    ]
    for (const action of bad) {
      const res = await kit.l1(action)
      const perItem = res.response?.data?.statuses?.[0]?.error
      expect(
        res.status === 'err' || typeof perItem === 'string',
        JSON.stringify({ action, res }),
      ).toBe(true)
    }
    // the fake still serves
    expect(
      (await kit.info({ type: 'openOrders', user: HL_KIT_USER })).body,
    ).toEqual([])
  })
})
