import { afterEach, describe, expect, test } from 'vitest'
import { T0 } from '../simTestKit.js'
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

const HOUR = 3_600_000

/** Buys 0.01 BTC at market (an IOC far above the mark). */
const buyBtc = (k: HlFakeTestKit) =>
  k.l1({
    type: 'order',
    orders: [
      {
        a: 0,
        b: true,
        p: '120000',
        s: '0.01',
        r: false,
        t: { limit: { tif: 'Ioc' } },
      },
    ],
    grouping: 'na',
  })

describe('hlInfo reads', () => {
  test('behavior: spotMeta lists USDC and no pairs; spotMetaAndAssetCtxs wraps it', async () => {
    kit = await hlFakeTestKit()
    const meta = (await kit.info({ type: 'spotMeta' })).body
    expect(meta.universe).toEqual([])
    expect(meta.tokens).toHaveLength(1)
    expect(meta.tokens[0]).toMatchObject({
      name: 'USDC',
      index: 0,
      szDecimals: 8,
      weiDecimals: 8,
    })
    expect((await kit.info({ type: 'spotMetaAndAssetCtxs' })).body).toEqual([
      meta,
      [],
    ])
  })

  test('behavior: l2Book is the engine book, best first on each side', async () => {
    kit = await hlFakeTestKit()
    const res = await kit.info({ type: 'l2Book', coin: 'BTC' })
    const [bids, asks] = res.body.levels
    const book = kit.exchange.book('BTC')
    expect(res.body.coin).toBe('BTC')
    expect(bids[0].px).toBe(book.bids[0]?.price.toString())
    expect(asks[0].px).toBe(book.asks[0]?.price.toString())
    expect(Number(bids[0].px)).toBeLessThan(Number(asks[0].px))
    expect(Number(bids[1].px)).toBeLessThan(Number(bids[0].px))
    expect(Number(asks[1].px)).toBeGreaterThan(Number(asks[0].px))
    expect((await kit.info({ type: 'l2Book', coin: 'NOPE' })).status).toBe(422)
  })

  test('behavior: funding reads agree with the engine', async () => {
    kit = await hlFakeTestKit()
    await buyBtc(kit)
    const predicted = (await kit.info({ type: 'predictedFundings' })).body
    const btc = predicted.find((p: [string]) => p[0] === 'BTC')
    expect(btc[1][0][0]).toBe('HlPerp')
    expect(btc[1][0][1]).toEqual({
      fundingRate: kit.exchange.quote('BTC').fundingRateHourly,
      nextFundingTime: T0 + HOUR,
      fundingIntervalHours: 1,
    })
    kit.advance(2 * HOUR)
    const history = (
      await kit.info({ type: 'fundingHistory', coin: 'BTC', startTime: T0 + 1 })
    ).body
    expect(history.map((h: { time: number }) => h.time)).toEqual([
      T0 + HOUR,
      T0 + 2 * HOUR,
    ])
    const paid = (
      await kit.info({ type: 'userFunding', user: HL_KIT_USER, startTime: T0 })
    ).body
    expect(
      paid.map((p: { delta: { fundingRate: string } }) => p.delta.fundingRate),
    ).toEqual(history.map((h: { fundingRate: string }) => h.fundingRate))
    expect(history[0]).toMatchObject({ coin: 'BTC', premium: '0' })
  })

  test('behavior: candleSnapshot builds candles from the marks seen', async () => {
    kit = await hlFakeTestKit()
    for (let i = 0; i < 3; i++) {
      await kit.info({ type: 'allMids' })
      kit.advance(60_000)
    }
    const candles = (
      await kit.info({
        type: 'candleSnapshot',
        req: { coin: 'BTC', interval: '1m', startTime: T0 },
      })
    ).body
    expect(candles.length).toBeGreaterThanOrEqual(3)
    expect(candles[0]).toMatchObject({ s: 'BTC', i: '1m', t: T0 })
    expect(candles[1].t - candles[0].t).toBe(60_000)
    for (const c of candles) {
      expect(Number(c.h)).toBeGreaterThanOrEqual(Number(c.l))
    }
    const last = candles[candles.length - 1]
    expect(last.c).toBe(kit.exchange.quote('BTC').mark)
    const bad = await kit.info({
      type: 'candleSnapshot',
      req: { coin: 'BTC', interval: '7m', startTime: T0 },
    })
    expect(bad.status).toBe(422)
  })

  test('behavior: userFees, userRateLimit and portfolio follow the fills', async () => {
    kit = await hlFakeTestKit()
    const fees = (await kit.info({ type: 'userFees', user: HL_KIT_USER })).body
    expect(fees).toMatchObject({
      userCrossRate: '0.00045',
      userAddRate: '0.00015',
    })
    await buyBtc(kit)
    const fill = (await kit.info({ type: 'userFills', user: HL_KIT_USER }))
      .body[0]
    const ntl = Number(fill.px) * Number(fill.sz)
    const limit = (await kit.info({ type: 'userRateLimit', user: HL_KIT_USER }))
      .body
    expect(Number(limit.cumVlm)).toBeCloseTo(ntl, 4)
    expect(limit.nRequestsCap).toBe(10_000 + Math.floor(ntl))
    expect(limit.nRequestsUsed).toBe(1)
    const folio = (await kit.info({ type: 'portfolio', user: HL_KIT_USER }))
      .body
    expect(folio.map((w: [string]) => w[0])).toEqual([
      'day',
      'week',
      'month',
      'allTime',
      'perpDay',
      'perpWeek',
      'perpMonth',
      'perpAllTime',
    ])
    expect(Number(folio[0][1].vlm)).toBeCloseTo(ntl, 4)
    expect(Number(folio[0][1].pnlHistory[0][1])).toBeCloseTo(
      -Number(fill.fee),
      6,
    )
  })

  test('behavior: each read and action is charged the documented weight', async () => {
    kit = await hlFakeTestKit()
    const k = kit
    const weight = () => k.fake.rateLimitUsage()[0]?.weight ?? 0
    const cost = async (send: () => Promise<unknown>) => {
      const before = weight()
      await send()
      return weight() - before
    }
    const user = HL_KIT_USER
    expect(await cost(() => k.info({ type: 'l2Book', coin: 'BTC' }))).toBe(2)
    expect(await cost(() => k.info({ type: 'exchangeStatus' }))).toBe(2)
    expect(await cost(() => k.info({ type: 'userRole', user }))).toBe(60)
    for (const type of [
      'spotMeta',
      'spotMetaAndAssetCtxs',
      'userFees',
      'userRateLimit',
      'predictedFundings',
      'portfolio',
      'frontendOpenOrders',
    ]) {
      expect(await cost(() => k.info({ type, user }))).toBe(20)
    }
    expect(
      await cost(() => k.info({ type: 'activeAssetData', user, coin: 'BTC' })),
    ).toBe(20)
    // 40 modifies are one batch of weight 1 + floor(40 / 40)
    const modifies = Array.from({ length: 40 }, (_, i) => ({
      oid: i + 1,
      order: {
        a: 0,
        b: true,
        p: '50000',
        s: '0.001',
        r: false,
        t: { limit: { tif: 'Gtc' } },
      },
    }))
    expect(await cost(() => k.l1({ type: 'batchModify', modifies }))).toBe(2)
    expect(await cost(() => k.l1({ type: 'noop' }))).toBe(1)
  })

  test('behavior: exchangeStatus and userAbstraction', async () => {
    kit = await hlFakeTestKit()
    expect((await kit.info({ type: 'exchangeStatus' })).body).toEqual({
      time: kit.exchange.now(),
      specialStatuses: null,
    })
    expect(
      (await kit.info({ type: 'userAbstraction', user: HL_KIT_USER })).body,
    ).toBe('default')
  })

  test('behavior: activeAssetData sizes trades from free margin and leverage', async () => {
    kit = await hlFakeTestKit()
    const d = (
      await kit.info({
        type: 'activeAssetData',
        user: HL_KIT_USER,
        coin: 'BTC',
      })
    ).body
    const mark = kit.exchange.quote('BTC').mark
    expect(d).toMatchObject({
      user: HL_KIT_USER,
      coin: 'BTC',
      leverage: { type: 'cross', value: 10 },
      markPx: mark,
    })
    const free = Number(kit.exchange.account(HL_KIT_USER).freeMarginUsd)
    expect(Number(d.availableToTrade[0])).toBeCloseTo(free * 10, 4)
    expect(Number(d.maxTradeSzs[0])).toBeCloseTo((free * 10) / Number(mark), 4)
  })
})
