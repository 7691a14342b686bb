import { afterEach, describe, expect, test } from 'vitest'
import {
  HL_KIT_USER,
  type HlFakeTestKit,
  hlFakeTestKit,
} from './hlFakeTestKit.js'

let kit: HlFakeTestKit | undefined
afterEach(async () => {
  await kit?.fake.close()
  kit = undefined
})

const order = (o: object) => ({ type: 'order', orders: [o], grouping: 'na' })

const trigger = (o: {
  b: boolean
  p: string
  s: string
  r: boolean
  triggerPx: string
  isMarket: boolean
  tpsl: 'tp' | 'sl'
}) => ({
  a: 0,
  b: o.b,
  p: o.p,
  s: o.s,
  r: o.r,
  t: {
    trigger: { isMarket: o.isMarket, triggerPx: o.triggerPx, tpsl: o.tpsl },
  },
})

const status = async (k: HlFakeTestKit, oid: number) =>
  (await k.info({ type: 'orderStatus', user: HL_KIT_USER, oid })).body.order

async function longBtc(k: HlFakeTestKit) {
  k.exchange.setMark('BTC', '100000')
  await k.l1(
    order({
      a: 0,
      b: true,
      p: '110000',
      s: '0.01',
      r: false,
      t: { limit: { tif: 'Ioc' } },
    }),
  )
}

describe('hlTriggerOrders', () => {
  test('behavior: a stop-market rests until the mark falls to it, then closes the position', async () => {
    kit = await hlFakeTestKit()
    await longBtc(kit)
    const res = await kit.l1(
      order(
        trigger({
          b: false,
          p: '85000',
          s: '0.01',
          r: true,
          triggerPx: '95000',
          isMarket: true,
          tpsl: 'sl',
        }),
      ),
    )
    const oid = res.response.data.statuses[0].resting.oid as number
    const waiting = await status(kit, oid)
    expect(waiting.status).toBe('open')
    expect(waiting.order).toMatchObject({
      isTrigger: true,
      triggerPx: '95000',
      triggerCondition: 'Price below 95000',
      orderType: 'Stop Market',
      tif: null,
      reduceOnly: true,
      sz: '0.01',
    })
    const front = (
      await kit.info({ type: 'frontendOpenOrders', user: HL_KIT_USER })
    ).body
    expect(front.map((o: { oid: number }) => o.oid)).toEqual([oid])
    // above the trigger nothing happens
    kit.exchange.setMark('BTC', '96000')
    expect((await status(kit, oid)).status).toBe('open')
    kit.exchange.setMark('BTC', '94000')
    const fired = await status(kit, oid)
    expect(fired.status).toBe('filled')
    const ch = (
      await kit.info({ type: 'clearinghouseState', user: HL_KIT_USER })
    ).body
    expect(ch.assetPositions).toEqual([])
    const fills = (await kit.info({ type: 'userFills', user: HL_KIT_USER }))
      .body
    const closing = fills.filter((f: { oid: number }) => f.oid === oid)
    expect(closing.length).toBeGreaterThan(0)
    expect(Number(closing[0].px)).toBeLessThan(95000)
    expect(closing[0]).toMatchObject({
      dir: 'Close Long',
      startPosition: '0.01',
    })
    expect(fills[0]).toMatchObject({ dir: 'Open Long', startPosition: '0' })
    expect(
      (await kit.info({ type: 'openOrders', user: HL_KIT_USER })).body,
    ).toEqual([])
  })

  test('behavior: a take-profit limit buy becomes a resting limit when the mark falls to it', async () => {
    kit = await hlFakeTestKit()
    kit.exchange.setMark('BTC', '100000')
    const res = await kit.l1(
      order(
        trigger({
          b: true,
          p: '80000',
          s: '0.001',
          r: false,
          triggerPx: '90000',
          isMarket: false,
          tpsl: 'tp',
        }),
      ),
    )
    const oid = res.response.data.statuses[0].resting.oid as number
    expect((await status(kit, oid)).order).toMatchObject({
      orderType: 'Take Profit Limit',
      triggerCondition: 'Price below 90000',
    })
    kit.exchange.setMark('BTC', '89000')
    const after = await status(kit, oid)
    expect(after.status).toBe('open')
    // now an engine order resting at its limit
    expect(kit.exchange.openOrders(HL_KIT_USER)).toHaveLength(1)
    const open = (await kit.info({ type: 'openOrders', user: HL_KIT_USER }))
      .body
    expect(open).toEqual([
      expect.objectContaining({ oid, limitPx: '80000', sz: '0.001' }),
    ])
  })

  test('behavior: a waiting trigger is cancelled by oid', async () => {
    kit = await hlFakeTestKit()
    kit.exchange.setMark('BTC', '100000')
    const res = await kit.l1(
      order(
        trigger({
          b: true,
          p: '120000',
          s: '0.001',
          r: false,
          triggerPx: '110000',
          isMarket: true,
          tpsl: 'sl',
        }),
      ),
    )
    const oid = res.response.data.statuses[0].resting.oid as number
    expect((await status(kit, oid)).order.triggerCondition).toBe(
      'Price above 110000',
    )
    const cancel = await kit.l1({ type: 'cancel', cancels: [{ a: 0, o: oid }] })
    expect(cancel.response.data.statuses).toEqual(['success'])
    expect((await status(kit, oid)).status).toBe('canceled')
    kit.exchange.setMark('BTC', '115000')
    expect((await status(kit, oid)).status).toBe('canceled')
    expect(kit.exchange.positions(HL_KIT_USER)).toEqual([])
  })

  test('error: a malformed trigger is refused per order', async () => {
    kit = await hlFakeTestKit()
    const res = await kit.l1(
      order({
        a: 0,
        b: true,
        p: '100000',
        s: '0.001',
        r: false,
        t: { trigger: { isMarket: true, triggerPx: '0', tpsl: 'sl' } },
      }),
    )
    expect(res.response.data.statuses).toEqual([
      { error: 'Invalid TP/SL price.' },
    ])
  })
})
