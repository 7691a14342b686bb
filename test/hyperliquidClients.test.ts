import { dec, decString } from '@dn/core'
import {
  createSimExchange,
  type HyperliquidFake,
  type SimExchange,
  startHyperliquidFake,
} from '@dn/venues/sim'
import * as hl from '@nktkas/hyperliquid'
import ccxt from 'ccxt'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'

/**
 * Hyperliquid's own clients against the fake, with real signatures: the
 * TypeScript SDK `@nktkas/hyperliquid` (an `HttpTransport` whose `apiUrl`
 * is the fake) and ccxt's `hyperliquid` class (`urls.api` pointed at the
 * fake; mainnet, as both default, matching the fake's default
 * `isMainnet: true`). The engine runs on the wall clock plus an offset
 * the tests move forward to cross funding hours; the clients' own nonces
 * (wall-clock milliseconds) stay inside the fake's nonce window.
 */

const HOUR = 3_600_000
let offset = 0
const now = () => Date.now() + offset

let exchange: SimExchange
let fake: HyperliquidFake

beforeAll(async () => {
  exchange = createSimExchange({ venue: 'hl', seed: 11, clock: { now } })
  fake = await startHyperliquidFake({ exchange, now, rateLimits: false })
  // a pinned mark: prices the tests derive from it stay where they were
  exchange.setMark('BTC', '100000')
})

afterAll(async () => {
  await fake?.close()
})

/**
 * A cloid above 2^53: nktkas reads an `oid` that parses as a safe integer
 * (`0x…01` is 1) as a numeric oid, so small cloids would name oids.
 */
const cloid = (n: number) =>
  `0x${'f'.repeat(24)}${n.toString(16).padStart(8, '0')}` as `0x${string}`

/** A price `pct` percent from the current BTC mark, on the 5-figure grid. */
const btcPx = (pct: number) => {
  const mark = Number(exchange.quote('BTC').mark)
  return String(Math.round((mark * (100 + pct)) / 100))
}

describe('@nktkas/hyperliquid against the fake', () => {
  const user = privateKeyToAccount(generatePrivateKey())
  const agent = privateKeyToAccount(generatePrivateKey())
  let info: hl.InfoClient
  let asUser: hl.ExchangeClient
  let asAgent: hl.ExchangeClient

  beforeAll(() => {
    exchange.faucet(user.address, 100_000)
    const transport = new hl.HttpTransport({ apiUrl: fake.url })
    info = new hl.InfoClient({ transport })
    asUser = new hl.ExchangeClient({ transport, wallet: user })
    asAgent = new hl.ExchangeClient({ transport, wallet: agent })
  })

  test('behavior: markets, an agent, and the account read back', async () => {
    const [meta, ctxs] = await info.metaAndAssetCtxs()
    expect(meta.universe[0]?.name).toBe('BTC')
    expect(ctxs[0]?.markPx).toBe(exchange.quote('BTC').mark)
    const spot = await info.spotMeta()
    expect(spot.tokens[0]?.name).toBe('USDC')
    const book = await info.l2Book({ coin: 'BTC' })
    expect(Number(book?.levels[0][0]?.px)).toBeLessThan(
      Number(book?.levels[1][0]?.px),
    )
    await asUser.approveAgent({ agentAddress: agent.address, agentName: 'nk' })
    const agents = await info.extraAgents({ user: user.address })
    expect(agents.map((a) => a.address)).toEqual([agent.address.toLowerCase()])
    const account = await info.clearinghouseState({ user: user.address })
    expect(account.marginSummary.accountValue).toBe('100000')
    expect(account.assetPositions).toEqual([])
  })

  test('behavior: limit, post-only, IOC and trigger orders; modify; cancels', async () => {
    const limit = await asAgent.order({
      orders: [
        {
          a: 0,
          b: true,
          p: btcPx(-10),
          s: '0.001',
          r: false,
          t: { limit: { tif: 'Gtc' } },
          c: cloid(1),
        },
      ],
      grouping: 'na',
    })
    const resting = limit.response.data.statuses[0]
    if (!resting || typeof resting !== 'object' || !('resting' in resting)) {
      throw new TypeError(`not resting: ${JSON.stringify(resting)}`)
    }
    const oid = resting.resting.oid
    // post-only that would cross is refused with the venue's words
    await expect(
      asAgent.order({
        orders: [
          {
            a: 0,
            b: true,
            p: btcPx(5),
            s: '0.001',
            r: false,
            t: { limit: { tif: 'Alo' } },
          },
        ],
        grouping: 'na',
      }),
    ).rejects.toThrow(/Post only order would have immediately matched/)
    const ioc = await asAgent.order({
      orders: [
        {
          a: 0,
          b: true,
          p: btcPx(5),
          s: '0.01',
          r: false,
          t: { limit: { tif: 'Ioc' } },
        },
      ],
      grouping: 'na',
    })
    const filled = ioc.response.data.statuses[0]
    expect(filled).toMatchObject({ filled: { totalSz: '0.01' } })
    const stop = await asAgent.order({
      orders: [
        {
          a: 0,
          b: false,
          p: btcPx(-20),
          s: '0.01',
          r: true,
          t: { trigger: { isMarket: true, triggerPx: btcPx(-5), tpsl: 'sl' } },
        },
      ],
      grouping: 'na',
    })
    const stopOid = (
      stop.response.data.statuses[0] as { resting: { oid: number } }
    ).resting.oid
    const front = await info.frontendOpenOrders({ user: user.address })
    expect(front.find((o) => o.oid === stopOid)).toMatchObject({
      isTrigger: true,
      orderType: 'Stop Market',
      reduceOnly: true,
      tif: null,
    })
    await asAgent.modify({
      oid: cloid(1),
      order: {
        a: 0,
        b: true,
        p: btcPx(-12),
        s: '0.002',
        r: false,
        t: { limit: { tif: 'Gtc' } },
        c: cloid(1),
      },
    })
    const modified = await info.orderStatus({
      user: user.address,
      oid: cloid(1),
    })
    if (modified.status !== 'order') throw new TypeError('unknown order')
    expect(modified.order.order).toMatchObject({ origSz: '0.002', tif: 'Gtc' })
    expect(modified.order.order.oid).not.toBe(oid)
    const byCloid = await asAgent.cancelByCloid({
      cancels: [{ asset: 0, cloid: cloid(1) }],
    })
    expect(byCloid.response.data.statuses).toEqual(['success'])
    const byOid = await asAgent.cancel({ cancels: [{ a: 0, o: stopOid }] })
    expect(byOid.response.data.statuses).toEqual(['success'])
    expect(await info.openOrders({ user: user.address })).toEqual([])
    await expect(
      asAgent.cancel({ cancels: [{ a: 0, o: stopOid }] }),
    ).rejects.toThrow(/never placed, already canceled, or filled/)
  })

  test('behavior: leverage, fills and funding', async () => {
    await asAgent.updateLeverage({ asset: 1, isCross: false, leverage: 4 })
    const eth = await info.activeAssetData({ user: user.address, coin: 'ETH' })
    expect(eth.leverage).toMatchObject({ type: 'isolated', value: 4 })
    await expect(
      asAgent.updateLeverage({ asset: 0, isCross: false, leverage: 4 }),
    ).rejects.toThrow(/Cannot switch leverage type with open position/)
    const fills = await info.userFills({ user: user.address })
    expect(fills).toHaveLength(1)
    expect(fills[0]).toMatchObject({ coin: 'BTC', side: 'B', sz: '0.01' })
    const start = now()
    offset += HOUR
    const funding = await info.userFunding({
      user: user.address,
      startTime: start,
    })
    expect(funding).toHaveLength(1)
    expect(funding[0]?.delta).toMatchObject({ coin: 'BTC', szi: '0.01' })
    const history = await info.fundingHistory({ coin: 'BTC', startTime: start })
    expect(history.map((h) => h.fundingRate)).toEqual([
      funding[0]?.delta.fundingRate,
    ])
    expect((await asAgent.noop()).status).toBe('ok')
  })

  test('error: a builder the user never approved, then approved', async () => {
    const builder = privateKeyToAccount(generatePrivateKey()).address
    const order = {
      orders: [
        {
          a: 0,
          b: true,
          p: btcPx(-10),
          s: '0.001',
          r: false,
          t: { limit: { tif: 'Gtc' as const } },
        },
      ],
      grouping: 'na' as const,
      builder: { b: builder, f: 10 },
    }
    await expect(asAgent.order(order)).rejects.toThrow(
      'Builder fee has not been approved.',
    )
    await asUser.approveBuilderFee({ builder, maxFeeRate: '0.01%' })
    expect(await info.maxBuilderFee({ user: user.address, builder })).toBe(10)
    const placed = await asAgent.order(order)
    expect(placed.response.data.statuses[0]).toHaveProperty('resting')
  })
})

describe('ccxt hyperliquid against the fake', () => {
  const key = generatePrivateKey()
  const user = privateKeyToAccount(key)
  let ex: any
  const SYMBOL = 'BTC/USDC:USDC'

  beforeAll(() => {
    exchange.faucet(user.address, 50_000)
    ex = new ccxt.hyperliquid({
      walletAddress: user.address,
      privateKey: key,
      urls: { api: { public: fake.url, private: fake.url } },
      // the fake's limits are off here; ccxt's own throttle only slows the test
      enableRateLimit: false,
    })
  })

  test('behavior: loadMarkets, balance and the builder-fee approval', async () => {
    const markets = await ex.loadMarkets()
    expect(markets[SYMBOL]).toMatchObject({ swap: true, settle: 'USDC' })
    expect(Object.keys(markets)).toContain('XYZ-TSLA/USDC:USDC')
    const balance = await ex.fetchBalance()
    expect(balance.USDC.total).toBe(50_000)
    // ccxt approves its builder at 0.01% and then names it on orders
    expect(ex.options.approvedBuilderFee).toBe(true)
    const cap = await fetch(`${fake.url}/info`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        type: 'maxBuilderFee',
        user: user.address,
        builder: '0x6530512a6c89c7cfcebc3ba7fcd9ada5f30827a6',
      }),
    })
    expect(await cap.json()).toBe(10)
  })

  test('behavior: leverage, limit / post-only / IOC / trigger orders, edit, cancels', async () => {
    await ex.setLeverage(5, SYMBOL, { marginMode: 'cross' })
    const low = Number(btcPx(-10))
    const limit = await ex.createOrder(SYMBOL, 'limit', 'buy', 0.001, low, {
      clientOrderId: cloid(77),
    })
    expect(limit.id).toMatch(/^\d+$/)
    const post = await ex.createOrder(SYMBOL, 'limit', 'buy', 0.001, low, {
      postOnly: true,
    })
    const ioc = await ex.createOrder(
      SYMBOL,
      'limit',
      'buy',
      0.002,
      Number(btcPx(5)),
      { timeInForce: 'IOC' },
    )
    expect(ioc.filled).toBe(0.002)
    const trigger = await ex.createOrder(
      SYMBOL,
      'market',
      'sell',
      0.002,
      Number(btcPx(-5)),
      { triggerPrice: Number(btcPx(-5)), reduceOnly: true },
    )
    const open = await ex.fetchOpenOrders(SYMBOL)
    expect(open.map((o: { id: string }) => o.id).sort()).toEqual(
      [limit.id, post.id, trigger.id].sort(),
    )
    const fetched = await ex.fetchOrder(post.id, SYMBOL)
    expect(fetched).toMatchObject({ status: 'open', postOnly: true })
    const edited = await ex.editOrder(
      post.id,
      SYMBOL,
      'limit',
      'buy',
      0.002,
      Number(btcPx(-11)),
    )
    expect(edited.id).toMatch(/^\d+$/)
    expect(edited.id).not.toBe(post.id)
    expect(await ex.fetchOrder(edited.id, SYMBOL)).toMatchObject({
      status: 'open',
      amount: 0.002,
      price: Number(btcPx(-11)),
    })
    await ex.cancelOrder(undefined, SYMBOL, { clientOrderId: cloid(77) })
    expect(await ex.fetchOrder(limit.id, SYMBOL)).toMatchObject({
      status: 'canceled',
    })
    await ex.cancelOrder(trigger.id, SYMBOL)
    await ex.cancelOrder(edited.id, SYMBOL)
    expect(await ex.fetchOpenOrders(SYMBOL)).toEqual([])
    const history = await ex.fetchOrders(SYMBOL)
    const statusOf = (id: string) =>
      history.find((o: { id: string }) => o.id === id)?.status
    expect(statusOf(post.id)).toBe('canceled')
    expect(statusOf(ioc.id)).toBe('closed')
    const position = (await ex.fetchPositions([SYMBOL]))[0]
    expect(position).toMatchObject({ contracts: 0.002, side: 'long' })
    expect(position.leverage).toBe(5)
  })

  test('behavior: trades and funding history', async () => {
    const trades = await ex.fetchMyTrades(SYMBOL)
    expect(trades).toHaveLength(1)
    expect(trades[0]).toMatchObject({ side: 'buy', amount: 0.002 })
    const since = now()
    offset += HOUR
    const paid = await ex.fetchFundingHistory(SYMBOL, since)
    expect(paid).toHaveLength(1)
    expect(paid[0].amount).toBeLessThan(0)
    const rates = await ex.fetchFundingRateHistory(SYMBOL, since)
    expect(rates).toHaveLength(1)
    expect(rates[0].fundingRate).toBe(Number(paid[0].info.delta.fundingRate))
  })
})

describe('ccxt pays its builder fee on the fake', () => {
  const key = generatePrivateKey()
  const user = privateKeyToAccount(key)
  const SYMBOL = 'BTC/USDC:USDC'

  const clearinghouse = async () => {
    const res = await fetch(`${fake.url}/info`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'clearinghouseState', user: user.address }),
    })
    return (await res.json()) as {
      marginSummary: { accountValue: string; totalRawUsd: string }
    }
  }

  test('behavior: a filled ccxt order shows builderFee on its fill; the account pays exchange fee + builder fee', async () => {
    exchange.faucet(user.address, 10_000)
    const ex = new ccxt.hyperliquid({
      walletAddress: user.address,
      privateKey: key,
      urls: { api: { public: fake.url, private: fake.url } },
      enableRateLimit: false,
    })
    await ex.loadMarkets()
    const before = await clearinghouse()
    expect(before.marginSummary.accountValue).toBe('10000')
    const order = await ex.createOrder(
      SYMBOL,
      'limit',
      'buy',
      0.001,
      Number(btcPx(5)),
      { timeInForce: 'IOC' },
    )
    expect(order.filled).toBe(0.001)
    // ccxt's start-up setReferrer (code CCXT1) was refused and ignored
    expect(fake.toSnapshot().referrerOf).toEqual([])

    const trades = await ex.fetchMyTrades(SYMBOL)
    expect(trades.length).toBeGreaterThan(0)
    let fees = dec(0)
    let builderFees = dec(0)
    let upnl = dec(0)
    const mark = dec(exchange.quote('BTC').mark)
    for (const t of trades) {
      const { px, sz, fee, builderFee } = t.info
      // ccxt sends f: 10, tenths of a bp: 0.01% of the fill's notional
      const owed = dec(px).mul(sz).mul('0.0001').toDecimalPlaces(6)
      expect(builderFee).toBe(decString(owed))
      expect(owed.gt(0)).toBe(true)
      // the venue's fee includes the builder's part (ccxt 4.5.84's
      // parseTrade adds builderFee to it once more)
      expect(t.fee?.cost).toBe(Number(decString(dec(fee).add(builderFee))))
      fees = fees.add(fee).sub(builderFee)
      builderFees = builderFees.add(builderFee)
      upnl = upnl.add(dec(sz).mul(mark.sub(px)))
    }
    const after = await clearinghouse()
    expect(after.marginSummary.totalRawUsd).toBe(
      decString(dec(10_000).sub(fees).sub(builderFees)),
    )
    expect(after.marginSummary.accountValue).toBe(
      decString(dec(10_000).sub(fees).sub(builderFees).add(upnl)),
    )
  })
})

describe('a testnet fake (isMainnet: false)', () => {
  let testnet: HyperliquidFake
  let tnExchange: SimExchange
  const key = generatePrivateKey()
  const user = privateKeyToAccount(key)
  const order = {
    orders: [
      {
        a: 0,
        b: true,
        p: '90000',
        s: '0.001',
        r: false,
        t: { limit: { tif: 'Gtc' as const } },
      },
    ],
    grouping: 'na' as const,
  }

  beforeAll(async () => {
    tnExchange = createSimExchange({ venue: 'hl', seed: 12, clock: { now } })
    tnExchange.faucet(user.address, 10_000)
    tnExchange.setMark('BTC', '100000')
    testnet = await startHyperliquidFake({
      exchange: tnExchange,
      now,
      isMainnet: false,
      rateLimits: false,
    })
  })

  afterAll(async () => {
    await testnet?.close()
  })

  test('behavior: nktkas signs for testnet with isTestnet; a mainnet signature names another signer', async () => {
    const tn = new hl.ExchangeClient({
      transport: new hl.HttpTransport({ apiUrl: testnet.url, isTestnet: true }),
      wallet: user,
    })
    const placed = await tn.order(order)
    expect(placed.response.data.statuses[0]).toHaveProperty('resting')
    const main = new hl.ExchangeClient({
      transport: new hl.HttpTransport({ apiUrl: testnet.url }),
      wallet: user,
    })
    await expect(main.order(order)).rejects.toThrow(/does not exist/)
  })

  test('behavior: ccxt in sandbox mode, its URLs then pointed at the fake', async () => {
    const ex = new ccxt.hyperliquid({
      walletAddress: user.address,
      privateKey: key,
      enableRateLimit: false,
    })
    ex.setSandboxMode(true)
    ex.urls.api = { public: testnet.url, private: testnet.url }
    await ex.loadMarkets()
    const placed = await ex.createOrder(
      'BTC/USDC:USDC',
      'limit',
      'buy',
      0.001,
      90_000,
    )
    expect(placed.id).toMatch(/^\d+$/)
    expect(ex.options.approvedBuilderFee).toBe(true)
  })
})
