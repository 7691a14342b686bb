import {
  type AsterFake,
  createSimExchange,
  type SimExchange,
  startAsterFake,
} from '@dn/venues/sim'
import ccxt from 'ccxt'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import {
  afterAll,
  beforeAll,
  describe,
  expect,
  onTestFinished,
  test,
} from 'vitest'

/**
 * ccxt's `aster` class (4.5.84) run against the Aster fake: its sign-in
 * (GET builder, then approveBuilder signed by the wallet as a fixed-order
 * struct) and its normal flows, asserting on what ccxt returns and on the
 * engine behind the fake. ccxt signs every private request itself with
 * `privateKey` (user = signer = that wallet's address).
 */

/** ccxt's default `options.builder` and `options.builderRate`. */
const CCXT_BUILDER = '0x1F5877C19e3777Cfd15F9d57253eA4aA5254Ec39'
const CCXT_RATE = '0.001'
const BTC = 'BTC/USDT:USDT'
const ETH = 'ETH/USDT:USDT'
const SOL = 'SOL/USDT:USDT'

/** A ccxt client on the fake: the options the docs give. */
function asterClient(url: string, privateKey: string) {
  return new ccxt.aster({
    privateKey,
    // ccxt's default market type is spot; the fake serves perpetuals
    options: { defaultType: 'swap' },
    urls: {
      api: {
        fapiPublic: `${url}/fapi`,
        fapiPrivate: `${url}/fapi`,
        // fetchMarkets also reads the spot exchangeInfo (none listed)
        sapiPublic: `${url}/api`,
        sapiPrivate: `${url}/api`,
      },
    },
    // the fake enforces Aster's weights itself
    enableRateLimit: false,
  })
}

type Client = ReturnType<typeof asterClient>

/** A funded wallet with a signed-in client. */
async function newTrader(
  fake: AsterFake,
  exchange: SimExchange,
  usd = 100_000,
) {
  const key = generatePrivateKey()
  const user = privateKeyToAccount(key).address
  exchange.faucet(user.toLowerCase(), usd)
  const c = asterClient(fake.url, key)
  await c.loadMarkets()
  return { key, user, owner: user.toLowerCase(), c }
}

/**
 * The weight the fake charged 127.0.0.1 for `run`, inside one calendar
 * minute (the window the fake counts in): started early enough in one.
 */
async function weightOf(fake: AsterFake, run: () => Promise<unknown>) {
  const used = () =>
    fake
      .rateLimitUsage()
      .find((u) => u.limit === 'REQUEST_WEIGHT' && u.subject === '127.0.0.1')
      ?.weight ?? 0
  const left = 60_000 - (Date.now() % 60_000)
  if (left < 5_000) await new Promise((r) => setTimeout(r, left + 50))
  const before = used()
  await run()
  return used() - before
}

describe('ccxt aster against the Aster fake', () => {
  const exchange = createSimExchange({
    venue: 'aster',
    seed: 21,
    clock: { now: () => Date.now() },
  })
  let fake: AsterFake
  beforeAll(async () => {
    fake = await startAsterFake({ exchange, port: 0 })
  })
  afterAll(() => fake.close())

  test('sign-in: GET builder finds none, approveBuilder is accepted, a second client finds it listed', async () => {
    const { key, user, c } = await newTrader(fake, exchange)
    expect(fake.builderCap(user, CCXT_BUILDER)).toBe(CCXT_RATE)
    // an accepted approval keeps the builder fee on (a refusal turns it off)
    expect(c.options.builderFee).toBe(true)
    const again = asterClient(fake.url, key)
    await again.signIn()
    expect(await again.fapiPrivateGetV3Builder()).toEqual([
      {
        userAddress: user,
        builderAddress: CCXT_BUILDER,
        maxFeeRate: CCXT_RATE,
        builderName: 'ccxt',
      },
    ])
    expect(again.options.approvedBuilderFee).toBeUndefined()
  })

  test('loadMarkets: the engine markets as linear swaps with its tick, step and minimums', async () => {
    const { c } = await newTrader(fake, exchange)
    const symbols = Object.keys(c.markets ?? {}).sort()
    expect(symbols).toEqual([BTC, ETH, SOL])
    const m = c.market(BTC)
    const rules = exchange.rules('BTCUSDT')
    expect(m).toMatchObject({
      id: 'BTCUSDT',
      swap: true,
      linear: true,
      settle: 'USDT',
      precision: {
        price: Number(rules?.tickSize),
        amount: Number(rules?.sizeStep),
      },
      limits: {
        amount: { min: Number(rules?.minBase) },
        cost: { min: Number(rules?.minNotionalUsd) },
      },
    })
  })

  test('fetchBalance: the engine account in USDT, weight 5', async () => {
    const { c, owner } = await newTrader(fake, exchange, 12_345)
    let balance: Awaited<ReturnType<Client['fetchBalance']>> | undefined
    const weight = await weightOf(fake, async () => {
      balance = await c.fetchBalance()
    })
    expect(weight).toBe(5)
    expect(balance?.USDT).toEqual({
      free: Number(exchange.account(owner).freeMarginUsd),
      used: 0,
      total: 12_345,
    })
  })

  test('setLeverage / setMarginMode: kept per symbol, shown by positionRisk, used by the engine', async () => {
    const { c, owner } = await newTrader(fake, exchange)
    expect(await c.setLeverage(7, BTC)).toMatchObject({
      leverage: 7,
      symbol: 'BTCUSDT',
    })
    // ETH allows at most 100x on the engine: the venue's -4028
    await expect(c.setLeverage(101, ETH)).rejects.toThrow(/-4028/)
    expect(await c.setMarginMode('isolated', ETH)).toEqual({
      code: 200,
      msg: 'success',
    })
    await expect(c.setMarginMode('isolated', ETH)).rejects.toBeInstanceOf(
      ccxt.NoChange,
    )
    const rows = (await c.fapiPrivateGetV3PositionRisk()) as {
      symbol: string
      leverage: string
      marginType: string
      positionAmt: string
    }[]
    const row = (s: string) => rows.find((r) => r.symbol === s)
    expect(row('BTCUSDT')).toMatchObject({
      leverage: '7',
      marginType: 'cross',
      positionAmt: '0',
    })
    expect(row('ETHUSDT')).toMatchObject({ marginType: 'isolated' })
    // the engine trades at the leverage set
    await c.createOrder(BTC, 'market', 'buy', 0.01)
    const [p] = exchange.positions(owner)
    expect(p).toMatchObject({ market: 'BTCUSDT', size: '0.01', leverage: '7' })
    const positions = await c.fetchPositions([BTC])
    expect(positions).toHaveLength(1)
    expect(positions[0]).toMatchObject({
      symbol: BTC,
      contracts: 0.01,
      // ccxt reads the side from a `notional` the doc's row does not have
      hedged: false,
      leverage: 7,
      marginMode: 'cross',
      entryPrice: Number(p?.entryPrice),
    })
    // with a position the margin type is locked (-4048)
    await expect(c.setMarginMode('isolated', BTC)).rejects.toThrow(/-4048/)
  })

  test('account reads: time, position mode, leverages, margin modes, trading fee, order history', async () => {
    const { c, owner } = await newTrader(fake, exchange)
    const t = await c.fetchTime()
    expect(Math.abs((t ?? 0) - Date.now())).toBeLessThan(5_000)
    expect((await c.fetchPositionMode()).hedged).toBe(false)
    // already one-way: the venue's -4059
    await expect(c.setPositionMode(false)).rejects.toThrow(/-4059/)
    await c.setLeverage(3, SOL)
    await c.setMarginMode('isolated', SOL)
    const leverages = await c.fetchLeverages([BTC, SOL])
    expect(leverages[SOL]).toMatchObject({
      marginMode: 'isolated',
      longLeverage: 3,
    })
    // untouched: the engine's default, 10x cross
    expect(leverages[BTC]).toMatchObject({
      marginMode: 'cross',
      longLeverage: 10,
    })
    const modes = await c.fetchMarginModes([SOL, ETH])
    expect(modes[SOL]?.marginMode).toBe('isolated')
    expect(modes[ETH]?.marginMode).toBe('cross')
    expect(await c.fetchTradingFee(BTC)).toMatchObject({
      symbol: BTC,
      maker: 0.0001,
      taker: 0.00035,
    })
    const filled = await c.createOrder(SOL, 'market', 'buy', 1)
    const bid = Number(exchange.book('SOLUSDT').bids[0]?.price)
    const resting = await c.createOrder(SOL, 'limit', 'buy', 1, bid - 5)
    await c.cancelOrder(String(resting.id), SOL)
    const history = await c.fetchOrders(SOL)
    expect(history.map((o) => [o.id, o.status])).toEqual([
      [filled.id, 'closed'],
      [resting.id, 'canceled'],
    ])
    // the engine holds the position at the 3x isolated setting
    expect(exchange.positions(owner)).toMatchObject([
      { market: 'SOLUSDT', size: '1', leverage: '3', marginMode: 'isolated' },
    ])
  })

  test('limit GTC rests: fetchOrder and fetchOpenOrders see it; cancel by id and by clientOrderId', async () => {
    const { c, owner } = await newTrader(fake, exchange)
    const bid = Number(exchange.book('BTCUSDT').bids[0]?.price)
    const low = Math.floor(bid * 0.95)
    const a = await c.createOrder(BTC, 'limit', 'buy', 0.01, low)
    const b = await c.createOrder(BTC, 'limit', 'buy', 0.02, low, {
      clientOrderId: 'ccxt-b-1',
    })
    expect(a).toMatchObject({ status: 'open', price: low, amount: 0.01 })
    expect(b.clientOrderId).toBe('ccxt-b-1')
    expect(
      exchange
        .openOrders(owner)
        .map((o) => o.clientOrderId)
        .sort(),
    ).toEqual([a.clientOrderId, 'ccxt-b-1'].sort())
    const open = await c.fetchOpenOrders(BTC)
    expect(open.map((o) => o.id).sort()).toEqual([a.id, b.id].sort())
    expect(await c.fetchOrder(String(a.id), BTC)).toMatchObject({
      id: a.id,
      status: 'open',
      filled: 0,
      timeInForce: 'GTC',
    })
    expect(
      await c.fetchOrder('', BTC, { clientOrderId: 'ccxt-b-1' }),
    ).toMatchObject({ id: b.id, amount: 0.02 })
    expect((await c.cancelOrder(String(a.id), BTC)).status).toBe('canceled')
    const byCloid = await c.cancelOrder('', BTC, { clientOrderId: 'ccxt-b-1' })
    expect(byCloid).toMatchObject({ id: b.id, status: 'canceled' })
    expect(exchange.openOrders(owner)).toEqual([])
    // cancelling a final order: the venue's -2011, ccxt's OrderNotFound
    await expect(c.cancelOrder(String(a.id), BTC)).rejects.toBeInstanceOf(
      ccxt.OrderNotFound,
    )
    await expect(c.fetchOrder('999999', BTC)).rejects.toBeInstanceOf(
      ccxt.OrderNotFound,
    )
  })

  test('Modify Order (PUT v3/order, signed by ccxt): the order reads back at the new price and amount; a final one is OrderNotFound', async () => {
    const { c, owner } = await newTrader(fake, exchange)
    const bid = Number(exchange.book('SOLUSDT').bids[0]?.price)
    const low = Number((bid * 0.9).toFixed(2))
    const placed = await c.createOrder(SOL, 'limit', 'buy', 1, low, {
      clientOrderId: 'ccxt-mod-1',
    })
    // ccxt 4.5.84's aster lists no PUT v3/order (editOrder: false): the
    // generic request its implicit methods go through, same signer
    const put = (params: Record<string, string>) =>
      c.request('v3/order', 'fapiPrivate', 'PUT', {
        symbol: 'SOLUSDT',
        ...params,
      }) as Promise<Record<string, unknown>>
    const higher = Number((bid * 0.92).toFixed(2))
    const answer = await put({
      orderId: String(placed.id),
      quantity: '1.5',
      price: higher.toFixed(2),
    })
    expect(answer).toMatchObject({
      orderId: Number(placed.id),
      clientOrderId: 'ccxt-mod-1',
      status: 'NEW',
      origQty: '1.5',
      price: higher.toFixed(2),
    })
    expect(await c.fetchOrder(String(placed.id), SOL)).toMatchObject({
      id: placed.id,
      clientOrderId: 'ccxt-mod-1',
      status: 'open',
      price: higher,
      amount: 1.5,
      filled: 0,
    })
    // by client order id, then the engine holds the one order at 2
    await put({
      origClientOrderId: 'ccxt-mod-1',
      quantity: '2',
      price: higher.toFixed(2),
    })
    expect(
      await c.fetchOrder('', SOL, { clientOrderId: 'ccxt-mod-1' }),
    ).toMatchObject({ id: placed.id, amount: 2, price: higher })
    expect(exchange.openOrders(owner)).toEqual([
      expect.objectContaining({ size: '2', state: 'open' }),
    ])
    await c.cancelOrder(String(placed.id), SOL)
    await expect(
      put({ orderId: String(placed.id), quantity: '3', price: low.toFixed(2) }),
    ).rejects.toBeInstanceOf(ccxt.OrderNotFound)
  })

  test('post-only (GTX) and IOC limits, ACK and RESULT answers; market orders fill and carry the builder fee', async () => {
    const { c, owner } = await newTrader(fake, exchange)
    // a still mark keeps the book where it was read
    exchange.setMark('ETHUSDT', '3500')
    onTestFinished(() => exchange.setMark('ETHUSDT', null))
    const book = exchange.book('ETHUSDT')
    const ask = Number(book.asks[0]?.price)
    const bid = Number(book.bids[0]?.price)
    // a post-only buy at the ask would take: refused, nothing placed
    await expect(
      c.createOrder(ETH, 'limit', 'buy', 0.01, ask, { postOnly: true }),
    ).rejects.toThrow(/Post Only order will be rejected/)
    const maker = await c.createOrder(ETH, 'limit', 'buy', 0.01, bid - 10, {
      postOnly: true,
    })
    expect(maker.status).toBe('open')
    expect(maker.info.timeInForce).toBe('GTX')
    const ioc = await c.createOrder(ETH, 'limit', 'buy', 0.01, ask + 5, {
      timeInForce: 'IOC',
    })
    // newOrderRespType ACK (ccxt sends none): the order as accepted
    expect(ioc).toMatchObject({ status: 'open', filled: 0 })
    expect(await c.fetchOrder(String(ioc.id), ETH)).toMatchObject({
      status: 'closed',
      filled: 0.01,
    })
    const missed = await c.createOrder(ETH, 'limit', 'sell', 0.01, ask + 50, {
      timeInForce: 'IOC',
      newOrderRespType: 'RESULT',
    })
    // RESULT: its end, Aster's EXPIRED, which ccxt reports as canceled
    expect(missed).toMatchObject({ status: 'canceled', filled: 0 })
    expect(missed.info.status).toBe('EXPIRED')
    const market = await c.createOrder(ETH, 'market', 'buy', 0.02, undefined, {
      newOrderRespType: 'RESULT',
    })
    expect(market).toMatchObject({ status: 'closed', filled: 0.02 })
    expect(fake.orderBuilder(owner, market.clientOrderId as string)).toEqual({
      builder: CCXT_BUILDER,
      feeRate: CCXT_RATE,
    })
    expect(exchange.positions(owner)[0]?.size).toBe('0.03')
    const trades = await c.fetchMyTrades(ETH)
    expect(trades.map((t) => t.order).sort()).toEqual(
      [ioc.id, market.id].sort(),
    )
    const fills = exchange.fills(owner, 0)
    expect(trades.map((t) => t.price).sort()).toEqual(
      fills.map((f) => Number(f.price)).sort(),
    )
    expect(trades.reduce((s, t) => s + (t.amount ?? 0), 0)).toBeCloseTo(0.03)
    // the ledger (income): one COMMISSION per fill, the fee it paid
    const ledger = await c.fetchLedger('USDT')
    const fees = ledger.filter((e) => e.info.incomeType === 'COMMISSION')
    expect(fees.map((e) => [e.info.tradeId, e.info.income])).toEqual(
      fills.map((f) => [String(f.tradeId), `-${f.fee}`]),
    )
    expect(fees.map((e) => e.direction)).toEqual(['out', 'out'])
  })

  test('createOrders / cancelOrders: one batch request each, answered per order', async () => {
    const { c, owner } = await newTrader(fake, exchange)
    const bid = Number(exchange.book('BTCUSDT').bids[0]?.price)
    const price = Math.floor(bid * 0.93)
    let placed: Awaited<ReturnType<Client['createOrders']>> = []
    // weight 5 for the batch
    const weight = await weightOf(fake, async () => {
      placed = await c.createOrders([
        { symbol: BTC, type: 'limit', side: 'buy', amount: 0.01, price },
        { symbol: BTC, type: 'limit', side: 'buy', amount: 0.02, price },
      ])
    })
    expect(weight).toBe(5)
    expect(placed.map((o) => [o.status, o.amount])).toEqual([
      ['open', 0.01],
      ['open', 0.02],
    ])
    expect(exchange.openOrders(owner)).toHaveLength(2)
    const cancelled = await c.cancelOrders(
      placed.map((o) => String(o.id)),
      BTC,
    )
    expect(cancelled.map((o) => o.status)).toEqual(['canceled', 'canceled'])
    expect(exchange.openOrders(owner)).toEqual([])
    // a second cancel of the same ids: each entry is the venue's -2011
    const again = (await c.fapiPrivateDeleteV3BatchOrders({
      symbol: 'BTCUSDT',
      orderIdList: placed.map((o) => Number(o.id)),
    })) as { code: number }[]
    expect(again.map((r) => r.code)).toEqual([-2011, -2011])
  })

  test('cancelAllOrders cancels every open order of the symbol, waiting stops too', async () => {
    const { c, owner } = await newTrader(fake, exchange)
    const bid = Number(exchange.book('BTCUSDT').bids[0]?.price)
    await c.createOrder(BTC, 'limit', 'buy', 0.01, Math.floor(bid * 0.9))
    await c.createOrder(BTC, 'limit', 'buy', 0.01, Math.floor(bid * 0.92))
    const stop = await c.createOrder(BTC, 'market', 'buy', 0.01, undefined, {
      stopPrice: Math.ceil(bid * 1.1),
    })
    expect(stop.info.type).toBe('STOP_MARKET')
    expect(await c.fetchOpenOrders(BTC)).toHaveLength(3)
    const [answer] = await c.cancelAllOrders(BTC)
    expect(answer?.info).toEqual({
      code: '200',
      msg: 'The operation of cancel all open order is done.',
    })
    expect(await c.fetchOpenOrders(BTC)).toEqual([])
    expect(exchange.openOrders(owner)).toEqual([])
    expect((await c.fetchOrder(String(stop.id), BTC)).status).toBe('canceled')
  })

  test('trigger orders: STOP_MARKET and TAKE_PROFIT wait for the mark, then trade on the engine', async () => {
    const { c, owner } = await newTrader(fake, exchange)
    exchange.setMark('SOLUSDT', '150')
    try {
      await c.createOrder(SOL, 'market', 'buy', 2)
      const sl = await c.createOrder(SOL, 'market', 'sell', 1, undefined, {
        stopLossPrice: 140,
        reduceOnly: true,
      })
      const tp = await c.createOrder(SOL, 'limit', 'sell', 1, 160, {
        takeProfitPrice: 160,
        reduceOnly: true,
      })
      expect(sl.info).toMatchObject({
        type: 'STOP_MARKET',
        stopPrice: '140',
        status: 'NEW',
      })
      expect(tp.info).toMatchObject({ type: 'TAKE_PROFIT', price: '160' })
      // waiting in the fake, not on the engine's book
      expect(exchange.openOrders(owner)).toEqual([])
      expect((await c.fetchOpenOrders(SOL)).map((o) => o.id).sort()).toEqual(
        [sl.id, tp.id].sort(),
      )
      // a stop the mark has already passed: the venue's -2021
      await expect(
        c.createOrder(SOL, 'market', 'sell', 1, undefined, {
          stopLossPrice: 155,
        }),
      ).rejects.toBeInstanceOf(ccxt.OrderImmediatelyFillable)
      exchange.setMark('SOLUSDT', '139')
      expect(await c.fetchOrder(String(sl.id), SOL)).toMatchObject({
        status: 'closed',
        filled: 1,
      })
      expect((await c.fetchOrder(String(tp.id), SOL)).status).toBe('open')
      expect(exchange.positions(owner)[0]?.size).toBe('1')
      exchange.setMark('SOLUSDT', '161')
      expect(await c.fetchOrder(String(tp.id), SOL)).toMatchObject({
        status: 'closed',
        filled: 1,
      })
      expect(exchange.positions(owner)).toEqual([])
      expect(await c.fetchMyTrades(SOL)).toHaveLength(3)
    } finally {
      exchange.setMark('SOLUSDT', null)
    }
  })

  test('market data: order book, ticker and OHLCV from the engine and the marks the fake saw', async () => {
    const { c, owner } = await newTrader(fake, exchange)
    exchange.setMark('ETHUSDT', '3500')
    try {
      // the engine's book as it was at the request (a step may pass)
      const top = () =>
        exchange
          .book('ETHUSDT')
          .bids.slice(0, 5)
          .map((l) => [Number(l.price), Number(l.size)])
      const atFirst = top()
      const book = await c.fetchOrderBook(ETH, 5)
      expect([atFirst, top()]).toContainEqual(book.bids)
      expect(book.asks).toHaveLength(5)
      // ccxt rounds a limit up to a valid one; the venue refuses others
      await expect(
        c.fapiPublicGetV3Depth({ symbol: 'ETHUSDT', limit: 7 }),
      ).rejects.toThrow(/-1130/)
      const before = exchange.fills(owner, 0).length
      await c.createOrder(ETH, 'market', 'buy', 0.05)
      expect(exchange.fills(owner, 0)).toHaveLength(before + 1)
      exchange.setMark('ETHUSDT', '3600')
      const ticker = await c.fetchTicker(ETH)
      expect(ticker).toMatchObject({ symbol: ETH, last: 3600 })
      expect(ticker.high).toBeGreaterThanOrEqual(3600)
      expect(ticker.low).toBeLessThanOrEqual(3500)
      const candles = await c.fetchOHLCV(ETH, '1m')
      const last = candles[candles.length - 1] ?? []
      // the minute of the 3600 mark: nothing higher was seen in it
      expect([last[2], last[4]]).toEqual([3600, 3600])
      expect(Number(last[0]) % 60_000).toBe(0)
      // the traded volume: every account's ETH fills in those minutes
      const from = Number(candles[0]?.[0])
      let volume = 0
      for (let i = 1; exchange.ownerOf(i) !== null; i++) {
        for (const f of exchange.fills(exchange.ownerOf(i) as string, from)) {
          if (f.market === 'ETHUSDT') volume += Number(f.size)
        }
      }
      expect(candles.reduce((s, k) => s + Number(k[5]), 0)).toBeCloseTo(volume)
      expect(volume).toBeGreaterThanOrEqual(0.05)
    } finally {
      exchange.setMark('ETHUSDT', null)
    }
  })
})

describe('ccxt aster: funding against the Aster fake', () => {
  // settlements every second, so a test sees several
  const exchange = createSimExchange({
    venue: 'aster',
    seed: 22,
    clock: { now: () => Date.now() },
    fundingIntervalMs: 1000,
  })
  let fake: AsterFake
  beforeAll(async () => {
    fake = await startAsterFake({ exchange, port: 0 })
  })
  afterAll(() => fake.close())

  test('fetchFundingRate(s): the engine rate over the published 8 h interval', async () => {
    const c = asterClient(fake.url, generatePrivateKey())
    await c.loadMarkets()
    // a period ends every second here: the rate before or after the call
    const before = Number(exchange.quote('BTCUSDT').fundingRateHourly) * 8
    const r = await c.fetchFundingRate(BTC)
    const after = Number(exchange.quote('BTCUSDT').fundingRateHourly) * 8
    const near = (x: number) => Math.abs((r.fundingRate ?? 0) - x) < 1e-12
    expect(near(before) || near(after)).toBe(true)
    expect(r.nextFundingTimestamp).toBeGreaterThan(Date.now() - 1000)
    expect(r.markPrice).toBeGreaterThan(0)
    const all = await c.fetchFundingRates()
    expect(Object.keys(all).sort()).toEqual([BTC, ETH, SOL])
  })

  test('fetchFundingHistory: the engine settlements of the account; fetchFundingRateHistory: rates seen', async () => {
    const { c, owner } = await newTrader(fake, exchange)
    const since = Date.now()
    await c.createOrder(BTC, 'market', 'buy', 1)
    // requests let the fake see each coming settlement's rate
    const until = Date.now() + 3500
    while (Date.now() < until) {
      await c.fetchFundingRate(BTC)
      await new Promise((r) => setTimeout(r, 200))
    }
    const asked = Date.now()
    const history = await c.fetchFundingHistory(BTC, since)
    // every settlement before the call is listed; one more may have come
    const engine = exchange
      .funding(owner, 'BTCUSDT', new Date(since).toISOString())
      .filter((p) => Date.parse(p.time) <= asked)
    expect(engine.length).toBeGreaterThanOrEqual(2)
    expect(history.length - engine.length).toBeLessThanOrEqual(1)
    expect(
      history.slice(0, engine.length).map((h) => [h.timestamp, h.amount]),
    ).toEqual(engine.map((p) => [Date.parse(p.time), Number(p.amountUsd)]))
    expect(history[0]).toMatchObject({ symbol: BTC, code: 'USDT' })
    const rates = await c.fetchFundingRateHistory(BTC, since)
    expect(rates.length).toBeGreaterThanOrEqual(2)
    for (const r of rates) {
      expect((r.timestamp ?? 1) % 1000).toBe(0)
      expect(r.timestamp).toBeLessThanOrEqual(Date.now())
    }
    // each settled payment matches the rate published for its time
    const byTime = new Map(rates.map((r) => [r.timestamp, r.fundingRate]))
    expect(exchange.positions(owner)[0]).toMatchObject({ size: '1' })
    for (const h of history) {
      const rate = byTime.get(h.timestamp)
      if (rate === undefined) continue
      expect(Math.sign(h.amount ?? 0) || 0).toBe(-Math.sign(rate) || 0)
    }
  })
})
