import type { Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterEach, describe, expect, test } from 'vitest'
import { hlApproveAgentRequest } from '../../hyperliquid/binding/approveAgentRequest.js'
import { signL1Action } from '../../hyperliquid/signing/l1Signature.js'
import {
  cancelByCloidAction,
  orderAction,
} from '../../hyperliquid/signing/orderAction.js'
import {
  type HlTypedDataTypes,
  type HlUserSignedActionObject,
  signUserSignedAction,
} from '../../hyperliquid/signing/userSignedAction.js'
import { createSimExchange } from '../simExchange.js'
import { T0 } from '../simTestKit.js'
import {
  type HyperliquidFake,
  startHyperliquidFake,
} from './startHyperliquidFake.js'

const USER_KEY: Hex = `0x${'11'.repeat(32)}`
const AGENT_KEY: Hex = `0x${'22'.repeat(32)}`
const STRANGER_KEY: Hex = `0x${'33'.repeat(32)}`
const USER = privateKeyToAccount(USER_KEY).address.toLowerCase()
const AGENT = privateKeyToAccount(AGENT_KEY).address.toLowerCase()
const CLOID_1 = `0x${'0'.repeat(31)}1`
const CLOID_2 = `0x${'0'.repeat(31)}2`

let fake: HyperliquidFake | undefined
afterEach(async () => {
  await fake?.close()
  fake = undefined
})

async function setup(o: { fund?: boolean } = {}) {
  let now = T0 + 500
  let seq = 0
  const exchange = createSimExchange({
    venue: 'hl',
    seed: 7,
    clock: { now: () => now },
  })
  if (o.fund !== false) exchange.faucet(USER, 100_000)
  fake = await startHyperliquidFake({ exchange, now: () => now })
  const url = fake.url
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    return { status: res.status, body: (await res.json()) as any }
  }
  const nextNonce = () => now + ++seq
  const l1 = async (key: Hex, action: object, nonce = nextNonce()) => {
    const signature = await signL1Action({
      privateKey: key,
      action,
      vaultAddress: null,
      nonce,
      isMainnet: true,
    })
    return post('/exchange', { action, nonce, signature, vaultAddress: null })
  }
  const approve = async (key: Hex = USER_KEY, name = 'dn') => {
    const nonce = nextNonce()
    const { payload } = hlApproveAgentRequest({
      agentAddress: AGENT,
      agentName: name,
      nonce,
    })
    const action = payload.message as unknown as HlUserSignedActionObject
    const signature = await signUserSignedAction({
      privateKey: key,
      action,
      types: payload.types as HlTypedDataTypes,
      primaryType: payload.primaryType as `HyperliquidTransaction:${string}`,
      isMainnet: true,
    })
    return post('/exchange', { action, nonce, signature })
  }
  return {
    exchange,
    url,
    post,
    l1,
    approve,
    nextNonce,
    info: (body: object) => post('/info', body),
    advance: (ms: number) => {
      now += ms
    },
  }
}

const btc = (over: Partial<Parameters<typeof orderAction>[0][0]> = {}) =>
  orderAction([
    {
      asset: 0,
      isBuy: true,
      price: '101000',
      size: '0.001',
      reduceOnly: false,
      tif: 'Ioc',
      cloid: CLOID_1,
      ...over,
    },
  ])

describe('startHyperliquidFake', () => {
  test('behavior: meta lists the hl universe with szDecimals', async () => {
    const k = await setup()
    const [meta, ctxs] = (await k.info({ type: 'metaAndAssetCtxs' })).body
    expect(meta.universe[0]).toMatchObject({
      name: 'BTC',
      szDecimals: 5,
      maxLeverage: 40,
    })
    expect(ctxs[0]).toMatchObject({
      openInterest: '0',
      funding: k.exchange.quote('BTC').fundingRateHourly,
    })
    expect(Number(ctxs[0].markPx)).toBeGreaterThan(0)
  })

  test('behavior: builder-deployed markets live on their own dex', async () => {
    const k = await setup()
    const main = (await k.info({ type: 'meta' })).body
    expect(main.universe.map((u: { name: string }) => u.name)).not.toContain(
      'xyz:TSLA',
    )
    expect((await k.info({ type: 'perpDexs' })).body).toEqual([
      null,
      expect.objectContaining({ name: 'xyz' }),
    ])
    const xyz = (await k.info({ type: 'metaAndAssetCtxs', dex: 'xyz' })).body
    expect(xyz[0].universe[0]).toMatchObject({ name: 'xyz:TSLA' })
    const unknown = await fetch(`${k.url}/info`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'meta', dex: 'nope' }),
    })
    expect(unknown.status).toBe(422)
  })

  test('behavior: approveAgent by the user, then an order signed by the agent fills', async () => {
    const k = await setup()
    expect((await k.approve()).body).toEqual({
      status: 'ok',
      response: { type: 'default' },
    })
    expect((await k.info({ type: 'extraAgents', user: USER })).body).toEqual([
      { name: 'dn', address: AGENT, validUntil: Number.MAX_SAFE_INTEGER },
    ])
    const res = await k.l1(AGENT_KEY, btc())
    const status = res.body.response.data.statuses[0]
    expect(res.body.status).toBe('ok')
    expect(status.filled).toMatchObject({ totalSz: '0.001', cloid: CLOID_1 })
    expect(typeof status.filled.oid).toBe('number')
    const ch = (await k.info({ type: 'clearinghouseState', user: USER })).body
    expect(ch.assetPositions[0].position).toMatchObject({
      coin: 'BTC',
      szi: '0.001',
      leverage: { type: 'cross', value: 10 },
    })
  })

  test('behavior: an order signed by an unapproved key is refused', async () => {
    const k = await setup()
    const stranger = privateKeyToAccount(STRANGER_KEY).address.toLowerCase()
    expect((await k.l1(STRANGER_KEY, btc())).body).toEqual({
      status: 'err',
      response: `User or API Wallet ${stranger} does not exist.`,
    })
  })

  test('behavior: approveAgent from an account that does not exist is refused', async () => {
    const k = await setup({ fund: false })
    const res = await k.approve()
    expect(res.body).toEqual({
      status: 'err',
      response: `User or API Wallet ${USER} does not exist.`,
    })
  })

  test('behavior: a reused nonce is refused', async () => {
    const k = await setup()
    await k.approve()
    const nonce = k.nextNonce()
    expect((await k.l1(AGENT_KEY, btc(), nonce)).body.status).toBe('ok')
    const again = await k.l1(AGENT_KEY, btc({ cloid: CLOID_2 }), nonce)
    expect(again.body.status).toBe('err')
    expect(again.body.response).toMatch(/nonce/i)
  })

  test('behavior: an off-grid price and an over-precise size are refused per order', async () => {
    const k = await setup()
    const price = await k.l1(USER_KEY, btc({ price: '100000.05' }))
    expect(price.body.response.data.statuses).toEqual([
      { error: 'Order has invalid price.' },
    ])
    const size = await k.l1(USER_KEY, btc({ size: '0.000001', cloid: CLOID_2 }))
    expect(size.body.response.data.statuses).toEqual([
      { error: 'Order has invalid size.' },
    ])
  })

  test('behavior: orderStatus by cloid, then cancelByCloid of a resting order', async () => {
    const k = await setup()
    const placed = await k.l1(USER_KEY, btc({ price: '90000', tif: 'Gtc' }))
    const resting = placed.body.response.data.statuses[0].resting
    expect(resting).toMatchObject({ cloid: CLOID_1 })
    const st = (await k.info({ type: 'orderStatus', user: USER, oid: CLOID_1 }))
      .body
    expect(st.status).toBe('order')
    expect(st.order.status).toBe('open')
    expect(st.order.order).toMatchObject({
      coin: 'BTC',
      side: 'B',
      limitPx: '90000',
      sz: '0.001',
      origSz: '0.001',
      oid: resting.oid,
      cloid: CLOID_1,
    })
    const open = (await k.info({ type: 'openOrders', user: USER })).body
    expect(open.map((o: { oid: number }) => o.oid)).toEqual([resting.oid])
    const cancel = await k.l1(
      USER_KEY,
      cancelByCloidAction([{ asset: 0, cloid: CLOID_1 }]),
    )
    expect(cancel.body).toEqual({
      status: 'ok',
      response: { type: 'cancel', data: { statuses: ['success'] } },
    })
    const after = (
      await k.info({ type: 'orderStatus', user: USER, oid: resting.oid })
    ).body
    expect(after.order.status).toBe('canceled')
    const twice = await k.l1(
      USER_KEY,
      cancelByCloidAction([{ asset: 0, cloid: CLOID_1 }]),
    )
    expect(twice.body.response.data.statuses[0]).toEqual({
      error: 'Order was never placed, already canceled, or filled.',
    })
    expect(
      (await k.info({ type: 'orderStatus', user: USER, oid: CLOID_2 })).body,
    ).toEqual({ status: 'unknownOid' })
  })

  test('behavior: userRole is missing before the faucet and user after', async () => {
    const k = await setup({ fund: false })
    expect((await k.info({ type: 'userRole', user: USER })).body).toEqual({
      role: 'missing',
    })
    k.exchange.faucet(USER, 1000)
    expect((await k.info({ type: 'userRole', user: USER })).body).toEqual({
      role: 'user',
    })
  })

  test('behavior: userFunding lists a payment after an hour boundary', async () => {
    const k = await setup()
    await k.l1(USER_KEY, btc())
    expect(
      (await k.info({ type: 'userFunding', user: USER, startTime: T0 })).body,
    ).toEqual([])
    k.advance(3_600_000)
    const rows = (
      await k.info({ type: 'userFunding', user: USER, startTime: T0 })
    ).body
    expect(rows).toHaveLength(1)
    expect(rows[0].time).toBe(T0 + 3_600_000)
    expect(rows[0].delta).toMatchObject({
      type: 'funding',
      coin: 'BTC',
      szi: '0.001',
    })
    expect(Number(rows[0].delta.usdc)).toBeLessThan(0)
    // the position shows what it paid (positive: paid), as the venue does
    const st = (await k.info({ type: 'clearinghouseState', user: USER })).body
    const paid = String(-Number(rows[0].delta.usdc))
    expect(st.assetPositions[0].position.cumFunding).toEqual({
      allTime: paid,
      sinceOpen: paid,
      sinceChange: paid,
    })
  })

  test('fault: outage answers 503; timeoutAfterAccept processes then drops the socket', async () => {
    const k = await setup()
    k.exchange.setFaults({ outage: true })
    expect((await k.info({ type: 'meta' })).status).toBe(503)
    k.exchange.setFaults({ timeoutAfterAcceptRate: 1 })
    await expect(k.l1(USER_KEY, btc())).rejects.toThrow()
    k.exchange.setFaults({})
    const st = (await k.info({ type: 'orderStatus', user: USER, oid: CLOID_1 }))
      .body
    expect(st.order.status).toBe('filled')
  })
})
