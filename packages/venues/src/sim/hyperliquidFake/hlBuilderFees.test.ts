import { type Decimal, dec, decString } from '@dn/core'
import { afterEach, describe, expect, test } from 'vitest'
import {
  type HlBuilderFee,
  type HlTif,
  orderAction,
} from '../../hyperliquid/signing/orderAction.js'
import {
  builderFeeTenths,
  HL_BUILDER_FEE_NOT_APPROVED,
} from './hlBuilderFees.js'
import {
  HL_KIT_USER,
  type HlFakeTestKit,
  hlFakeTestKit,
} from './hlFakeTestKit.js'

const BUILDER = '0x6530512a6c89c7cfcebc3ba7fcd9ada5f30827a6'

let kit: HlFakeTestKit | undefined
let plain: HlFakeTestKit | undefined
afterEach(async () => {
  await kit?.fake.close()
  await plain?.fake.close()
  kit = undefined
  plain = undefined
})

/** A resting BTC buy far below the mark, naming BUILDER at `f`. */
const withBuilder = (f: number) =>
  orderAction(
    [
      {
        asset: 0,
        isBuy: true,
        price: '50000',
        size: '0.001',
        reduceOnly: false,
        tif: 'Gtc',
      },
    ],
    { address: BUILDER, feeTenthsBp: f },
  )

describe('hlBuilderFees', () => {
  test('default: percent approvals in tenths of a basis point', () => {
    expect(builderFeeTenths('0.1%')).toBe(100)
    expect(builderFeeTenths('0.01%')).toBe(10)
    expect(builderFeeTenths('0.001%')).toBe(1)
    expect(builderFeeTenths('0%')).toBe(0)
    expect(builderFeeTenths('0.0001%')).toBeNull()
    expect(builderFeeTenths('0.1')).toBeNull()
  })

  test('error: an order naming a builder the user never approved is refused', async () => {
    kit = await hlFakeTestKit()
    expect(await kit.l1(withBuilder(10))).toEqual({
      status: 'err',
      response: HL_BUILDER_FEE_NOT_APPROVED,
    })
    // nothing reached the engine
    expect(kit.exchange.openOrders(HL_KIT_USER)).toEqual([])
  })

  test('error: a fee above the approved cap is refused', async () => {
    kit = await hlFakeTestKit()
    expect(await kit.approveBuilder(BUILDER, '0.01%')).toEqual({
      status: 'ok',
      response: { type: 'default' },
    })
    expect(await kit.l1(withBuilder(11))).toEqual({
      status: 'err',
      response: 'Builder fee has not been approved.',
    })
  })

  test('behavior: an approved builder within its cap is accepted', async () => {
    kit = await hlFakeTestKit()
    await kit.approveBuilder(BUILDER, '0.01%')
    const res = await kit.l1(withBuilder(10))
    expect(res.status).toBe('ok')
    const oid = res.response.data.statuses[0].resting.oid
    expect(typeof oid).toBe('number')
    const open = (await kit.info({ type: 'openOrders', user: HL_KIT_USER }))
      .body
    expect(open.map((o: { oid: number }) => o.oid)).toEqual([oid])
    expect(
      (
        await kit.info({
          type: 'maxBuilderFee',
          user: HL_KIT_USER,
          builder: BUILDER,
        })
      ).body,
    ).toBe(10)
  })

  test('behavior: raising the approval later takes effect on the next order', async () => {
    kit = await hlFakeTestKit()
    await kit.approveBuilder(BUILDER, '0.01%')
    expect((await kit.l1(withBuilder(50))).status).toBe('err')
    await kit.approveBuilder(BUILDER, '0.05%')
    const res = await kit.l1(withBuilder(50))
    expect(res.response.data.statuses[0]).toHaveProperty('resting')
    // and lowering it takes effect too
    await kit.approveBuilder(BUILDER, '0.001%')
    expect(await kit.l1(withBuilder(50))).toEqual({
      status: 'err',
      response: HL_BUILDER_FEE_NOT_APPROVED,
    })
  })

  test('behavior: seedAgent with a builder approves its cap', async () => {
    kit = await hlFakeTestKit()
    kit.fake.seedAgent(HL_KIT_USER, `0x${'ab'.repeat(20)}`, {
      address: BUILDER,
      maxFeeRate: '0.1%',
    })
    const res = await kit.l1(withBuilder(100))
    expect(res.response.data.statuses[0]).toHaveProperty('resting')
  })
})

interface Fill {
  px: string
  sz: string
  oid: number
  fee: string
  crossed: boolean
  builderFee?: string
}

/** A BTC order of 0.01 at `price`, naming `builder` if given. */
const btc = (
  isBuy: boolean,
  price: string,
  tif: HlTif,
  builder?: HlBuilderFee,
) =>
  orderAction(
    [{ asset: 0, isBuy, price, size: '0.01', reduceOnly: false, tif }],
    builder,
  )

const fillsOf = async (k: HlFakeTestKit): Promise<Fill[]> =>
  (await k.info({ type: 'userFills', user: HL_KIT_USER })).body

const summaryOf = async (k: HlFakeTestKit) =>
  (await k.info({ type: 'clearinghouseState', user: HL_KIT_USER })).body

/** f tenths of a bp of the fill's notional, in micro-dollars (the spec). */
const expectedFee = (f: Fill, tenths: number) =>
  dec(f.px).mul(f.sz).mul(tenths).div(100_000).toDecimalPlaces(6)

const sum = (xs: readonly Decimal[]) => xs.reduce((a, b) => a.add(b), dec(0))

describe('hlBuilderFees: charging', () => {
  test('behavior: an immediate fill pays f tenths of a bp of its notional, on top of the exchange fee', async () => {
    kit = await hlFakeTestKit()
    plain = await hlFakeTestKit()
    for (const k of [kit, plain]) k.exchange.setMark('BTC', '100000')
    await kit.approveBuilder(BUILDER, '0.05%')
    const withFee = await kit.l1(
      btc(true, '110000', 'Ioc', { address: BUILDER, feeTenthsBp: 30 }),
    )
    const without = await plain.l1(btc(true, '110000', 'Ioc'))
    expect(withFee.response.data.statuses[0].filled.totalSz).toBe('0.01')
    expect(without.response.data.statuses).toEqual(
      withFee.response.data.statuses,
    )

    const fills = await fillsOf(kit)
    expect(fills.length).toBeGreaterThan(0)
    for (const f of fills) {
      expect(f.builderFee).toBe(decString(expectedFee(f, 30)))
      expect(dec(f.builderFee ?? '0').gt(0)).toBe(true)
    }
    const plainFills = await fillsOf(plain)
    // without a builder: the same fills and exchange fee, no field; with
    // one, the venue's fee includes the builder's part
    expect(plainFills.map((f) => [f.px, f.sz, f.fee])).toEqual(
      fills.map((f) => [
        f.px,
        f.sz,
        decString(dec(f.fee).sub(f.builderFee ?? '0')),
      ]),
    )
    for (const f of plainFills) expect(f).not.toHaveProperty('builderFee')

    const paid = sum(fills.map((f) => dec(f.builderFee ?? '0')))
    const fees = sum(fills.map((f) => dec(f.fee))).sub(paid)
    const a = await summaryOf(kit)
    const b = await summaryOf(plain)
    expect(a.marginSummary.totalRawUsd).toBe(
      decString(dec(100_000).sub(fees).sub(paid)),
    )
    expect(a.marginSummary.accountValue).toBe(
      decString(dec(b.marginSummary.accountValue).sub(paid)),
    )
    expect(a.withdrawable).toBe(decString(dec(b.withdrawable).sub(paid)))
    // and the day's PnL counts it as a cost, like the exchange fee
    const day = (
      await kit.info({ type: 'portfolio', user: HL_KIT_USER })
    ).body.find(([name]: [string]) => name === 'day')[1]
    expect(day.pnlHistory[0][1]).toBe(decString(fees.add(paid).neg()))
  })

  test('behavior: a resting order pays the builder fee when it fills later', async () => {
    kit = await hlFakeTestKit()
    kit.exchange.setMark('BTC', '100000')
    await kit.approveBuilder(BUILDER, '0.01%')
    const res = await kit.l1(
      btc(true, '95000', 'Gtc', { address: BUILDER, feeTenthsBp: 10 }),
    )
    const oid = res.response.data.statuses[0].resting.oid as number
    expect(await fillsOf(kit)).toEqual([])
    const before = dec((await summaryOf(kit)).marginSummary.totalRawUsd)
    kit.exchange.setMark('BTC', '90000')
    const fills = (await fillsOf(kit)).filter((f) => f.oid === oid)
    expect(fills.length).toBeGreaterThan(0)
    for (const f of fills) {
      // it rested: maker fills at its own price
      expect(f).toMatchObject({ px: '95000', crossed: false })
      expect(f.builderFee).toBe(decString(expectedFee(f, 10)))
    }
    expect(sum(fills.map((f) => dec(f.sz)))).toEqual(dec('0.01'))
    // 0.01 × 95000 × 0.01% = 0.095
    expect(sum(fills.map((f) => dec(f.builderFee ?? '0')))).toEqual(
      dec('0.095'),
    )
    // the venue's fee is all the fill paid, the builder's part included
    const fees = sum(fills.map((f) => dec(f.fee)))
    expect((await summaryOf(kit)).marginSummary.totalRawUsd).toBe(
      decString(before.sub(fees)),
    )
  })

  test('behavior: f = 0 charges nothing and adds no builderFee', async () => {
    kit = await hlFakeTestKit()
    kit.exchange.setMark('BTC', '100000')
    await kit.approveBuilder(BUILDER, '0%')
    await kit.l1(
      btc(true, '110000', 'Ioc', { address: BUILDER, feeTenthsBp: 0 }),
    )
    const fills = await fillsOf(kit)
    expect(fills.length).toBeGreaterThan(0)
    for (const f of fills) expect(f).not.toHaveProperty('builderFee')
    const fees = sum(fills.map((f) => dec(f.fee)))
    expect((await summaryOf(kit)).marginSummary.totalRawUsd).toBe(
      decString(dec(100_000).sub(fees)),
    )
  })

  test('behavior: a modified order keeps its builder', async () => {
    kit = await hlFakeTestKit()
    kit.exchange.setMark('BTC', '100000')
    await kit.approveBuilder(BUILDER, '0.01%')
    const res = await kit.l1(
      btc(true, '95000', 'Gtc', { address: BUILDER, feeTenthsBp: 10 }),
    )
    const oid = res.response.data.statuses[0].resting.oid as number
    const wire = btc(true, '110000', 'Ioc').orders[0]
    expect(await kit.l1({ type: 'modify', oid, order: wire })).toEqual({
      status: 'ok',
      response: { type: 'default' },
    })
    const fills = await fillsOf(kit)
    expect(fills.length).toBeGreaterThan(0)
    for (const f of fills) {
      expect(f.builderFee).toBe(decString(expectedFee(f, 10)))
    }
  })
})
