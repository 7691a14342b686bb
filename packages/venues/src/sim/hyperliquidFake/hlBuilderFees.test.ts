import { afterEach, describe, expect, test } from 'vitest'
import { orderAction } from '../../hyperliquid/signing/orderAction.js'
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
afterEach(async () => {
  await kit?.fake.close()
  kit = undefined
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
