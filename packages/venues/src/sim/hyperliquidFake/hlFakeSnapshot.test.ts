import { dec } from '@dn/core'
import { afterEach, describe, expect, test } from 'vitest'
import { orderAction } from '../../hyperliquid/signing/orderAction.js'
import { createSimExchange } from '../simExchange.js'
import type { SimStateSnapshot } from '../simStateSnapshot.js'
import { T0 } from '../simTestKit.js'
import {
  type HlFakeSnapshot,
  hlFakeToSnapshot,
  restoreHlFake,
} from './hlFakeSnapshot.js'
import {
  approveAgent,
  createHlFakeState,
  useNonce,
  userOfSigner,
} from './hlFakeState.js'
import {
  HL_KIT_USER,
  type HlFakeTestKit,
  hlFakeTestKit,
} from './hlFakeTestKit.js'
import {
  type HyperliquidFake,
  startHyperliquidFake,
} from './startHyperliquidFake.js'

const USER = '0x00000000000000000000000000000000000000a1'
const AGENT = '0x00000000000000000000000000000000000000a2'

test('behavior: agents, fee approvals, nonces, orders, triggers and switches survive JSON; a used nonce stays used', () => {
  const now = () => T0
  const exchange = createSimExchange({ venue: 'hl', seed: 1, clock: { now } })
  exchange.faucet(USER, 1000)
  const state = createHlFakeState(exchange, true, now)
  approveAgent(state, USER, AGENT, 'dn valid_until 1900000000000')
  expect(useNonce(state, AGENT, T0 - 5)).toBeNull()
  state.builderFees.set(`${USER}|0xbuilder`, 30)
  state.ordersByOid.set(7, {
    user: USER,
    coin: 'BTC',
    side: 'B',
    limitPx: '50000',
    origSz: '0.001',
    oid: 7,
    timestamp: T0,
    cloid: '0xabc',
    engineId: '0xabc',
  })
  state.oidByCloid.set(`${USER}|0xabc`, 7)
  state.ordersByOid.set(10_000_000_001, {
    user: USER,
    coin: 'BTC',
    side: 'A',
    limitPx: '40000',
    origSz: '0.001',
    oid: 10_000_000_001,
    timestamp: T0,
    cloid: null,
    engineId: 'hlfake-x-1',
    tif: null,
    reduceOnly: true,
    trigger: { isMarket: true, triggerPx: '45000', tpsl: 'sl' },
  })
  state.triggers.set(10_000_000_001, { status: 'waitingForTrigger', at: T0 })
  state.scheduledCancels.set(USER, T0 + 60_000)
  state.cancelTriggers.set(USER, [T0 - 1000])
  state.nextPlain = 4

  const saved = hlFakeToSnapshot(state)
  const fresh = createHlFakeState(exchange, true, now)
  restoreHlFake(fresh, JSON.parse(JSON.stringify(saved)))

  expect(hlFakeToSnapshot(fresh)).toEqual(saved)
  expect(fresh.triggers.get(10_000_000_001)?.status).toBe('waitingForTrigger')
  expect(fresh.ordersByOid.get(10_000_000_001)?.trigger?.triggerPx).toBe(
    '45000',
  )
  expect(userOfSigner(fresh, AGENT)).toBe(USER)
  expect(useNonce(fresh, AGENT, T0 - 5)).toBe(
    `Invalid nonce: duplicate nonce ${T0 - 5}`,
  )
})

describe('builder codes across a restart', () => {
  const BUILDER = '0x6530512a6c89c7cfcebc3ba7fcd9ada5f30827a6'
  let kit: HlFakeTestKit | undefined
  let again: HyperliquidFake | undefined
  afterEach(async () => {
    await kit?.fake.close()
    await again?.close()
    kit = undefined
    again = undefined
  })

  /** a resting BTC buy at 95000 naming BUILDER at f = 10, then saved */
  async function saved() {
    kit = await hlFakeTestKit({ FRIEND: `0x${'cd'.repeat(20)}` })
    kit.exchange.setMark('BTC', '100000')
    await kit.approveBuilder(BUILDER, '0.01%')
    expect(await kit.l1({ type: 'setReferrer', code: 'FRIEND' })).toMatchObject(
      { status: 'ok' },
    )
    const res = await kit.l1(
      orderAction(
        [
          {
            asset: 0,
            isBuy: true,
            price: '95000',
            size: '0.01',
            reduceOnly: false,
            tif: 'Gtc',
          },
        ],
        { address: BUILDER, feeTenthsBp: 10 },
      ),
    )
    const oid = res.response.data.statuses[0].resting.oid as number
    const engine = JSON.parse(JSON.stringify(kit.exchange.toSnapshot()))
    const fake = JSON.parse(JSON.stringify(kit.fake.toSnapshot()))
    return { oid, engine, fake, at: kit.exchange.now() }
  }

  /** a fresh engine and fake from the saved JSON; then the mark falls */
  async function restoredFills(
    s: Awaited<ReturnType<typeof saved>>,
    engine: SimStateSnapshot,
    fake: HlFakeSnapshot,
  ) {
    const now = () => s.at
    const exchange = createSimExchange({
      venue: 'hl',
      seed: 7,
      clock: { now },
      restore: engine,
    })
    again = await startHyperliquidFake({
      exchange,
      now,
      rateLimits: false,
      restore: fake,
    })
    exchange.setMark('BTC', '90000')
    const res = await fetch(`${again.url}/info`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'userFills', user: HL_KIT_USER }),
    })
    return {
      fills: (await res.json()) as { oid: number; builderFee?: string }[],
      referrer: again.toSnapshot().referrerOf,
    }
  }

  test('behavior: a resting order keeps its builder and charges it after a restore', async () => {
    const s = await saved()
    expect(s.fake.orders[0].builder).toEqual({ b: BUILDER, f: 10 })
    const { fills, referrer } = await restoredFills(s, s.engine, s.fake)
    expect(fills.length).toBeGreaterThan(0)
    // 0.01 at 95000 at 0.01%, across however many fills
    const paid = fills
      .filter((f) => f.oid === s.oid)
      .reduce((a, f) => a.add(f.builderFee ?? '0'), dec(0))
    expect(paid).toEqual(dec('0.095'))
    expect(referrer).toEqual([[HL_KIT_USER, 'FRIEND']])
  })

  test('behavior: snapshots saved before builder fees still restore (no fee charged)', async () => {
    const s = await saved()
    const { builder: _b, ...order } = s.fake.orders[0]
    const { referrerOf: _r, ...fake } = s.fake
    const engine = {
      ...s.engine,
      orders: s.engine.orders.map(
        ({ builderFeeRate: _f, ...o }: { builderFeeRate?: string }) => o,
      ),
    }
    const { fills, referrer } = await restoredFills(s, engine, {
      ...fake,
      orders: [order],
    })
    expect(fills.length).toBeGreaterThan(0)
    for (const f of fills) expect(f).not.toHaveProperty('builderFee')
    expect(referrer).toEqual([])
  })
})
