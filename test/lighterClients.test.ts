import {
  CANCEL_ALL_ORDERS_TX_TYPE,
  cancelAllOrders,
  cancelOrder,
  changePubKey,
  createLighterAuthToken,
  createOrder,
  generateLighterKeyPair,
  LIGHTER_CANCEL_ALL,
  marginFractionOf,
  updateLeverage,
} from '@dn/venues'
import {
  createSimExchange,
  type LighterFake,
  type SimExchange,
  startLighterFake,
} from '@dn/venues/sim'
import ccxt from 'ccxt'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  type ZkLighterClient,
  zkLighterClient,
} from './support/zkLighterClient.js'

/**
 * Lighter's own TypeScript client (`zklighter-perps` 1.0.272) and ccxt's
 * `lighter` class (4.5.84) run against the Lighter fake, asserting on
 * what they return (each client parses the answers with its own models)
 * and on the engine behind the fake. Transactions are signed with dn's
 * Lighter signer and sent through the client's `TransactionApi.sendTx`
 * (multipart/form-data); authenticated reads carry the auth token in the
 * `authorization` query parameter, as the client sends it.
 */

type Rows = Record<string, unknown>[]
const HOUR = 3_600_000
const API_KEY = 3
const ETH = 0

describe('zklighter-perps against the Lighter fake', () => {
  let t = Math.floor(Date.now() / HOUR) * HOUR + 10 * 60_000
  const now = () => t
  let exchange: SimExchange
  let fake: LighterFake
  let zk: ZkLighterClient
  let account: number
  let mark: number
  const wallet = privateKeyToAccount(generatePrivateKey())
  const keys = generateLighterKeyPair()

  const header = async () => {
    const { nonce } = await zk.transaction.nextNonce({
      account_index: account,
      api_key_index: API_KEY,
    })
    return {
      chainId: fake.chainId,
      nonce: nonce as number,
      expiredAt: now() + 600_000,
      accountIndex: account,
      apiKeyIndex: API_KEY,
      privateKey: keys.privateKey,
    }
  }
  const send = (tx: { txType: number; txInfo: string }) =>
    zk.transaction.sendTx({ tx_type: tx.txType, tx_info: tx.txInfo })
  const authorization = () =>
    createLighterAuthToken({
      deadline: Math.floor(now() / 1000) + 3600,
      accountIndex: account,
      apiKeyIndex: API_KEY,
      privateKey: keys.privateKey,
    })
  const order = async (
    coi: number,
    isAsk: boolean,
    priceFactor: number,
    timeInForce: 0 | 1 | 2,
    baseAmount = 200,
  ) =>
    createOrder({
      ...(await header()),
      marketIndex: ETH,
      clientOrderIndex: coi,
      baseAmount,
      price: Math.round(mark * priceFactor * 100),
      isAsk,
      type: 0,
      timeInForce,
      reduceOnly: false,
      orderExpiry: timeInForce === 0 ? 0 : now() + 86_400_000,
    })
  const inactive = async () =>
    (
      await zk.order.accountInactiveOrders({
        account_index: account,
        limit: 50,
        authorization: authorization(),
      })
    ).orders as Rows

  beforeAll(async () => {
    exchange = createSimExchange({
      venue: 'lighter-mainnet',
      seed: 83,
      clock: { now },
    })
    fake = await startLighterFake({
      exchange,
      venue: 'lighter-mainnet',
      now,
      rateLimits: { lighterTier: 'builder', now: Date.now },
    })
    exchange.faucet(wallet.address.toLowerCase(), 100_000)
    mark = Number(exchange.quote('ETH').mark)
    zk = await zkLighterClient(fake.url)
    const subs = await zk.account.accountsByL1Address({
      l1_address: wallet.address,
    })
    account = (subs.sub_accounts as Rows)[0]?.index as number
    // the API key is registered through the client too: ChangePubKey,
    // signed by the key and personal-signed by the wallet
    const unsigned = changePubKey(await header())
    const l1Sig = await wallet.signMessage({ message: unsigned.messageToSign })
    await send(changePubKey({ ...(await header()), l1Sig }))
  })
  afterAll(() => fake?.close())

  test('status, markets, book, funding rates', async () => {
    expect((await zk.root.status()).network_id).toBe(304)
    const books = (await zk.order.orderBooks({ filter: 'perp' }))
      .order_books as Rows
    expect(books.map((b) => b.symbol).sort()).toEqual(['BTC', 'ETH', 'SOL'])
    const details = (await zk.order.orderBookDetails({ market_id: ETH }))
      .order_book_details as Rows
    expect(details[0]).toMatchObject({
      symbol: 'ETH',
      size_decimals: 4,
      price_decimals: 2,
    })
    expect(Number(details[0]?.mark_price)).toBe(mark)
    const book = await zk.order.orderBookOrders({ market_id: ETH, limit: 3 })
    const bestBid = Number((book.bids as Rows)[0]?.price)
    const bestAsk = Number((book.asks as Rows)[0]?.price)
    expect(bestBid).toBeLessThan(mark)
    expect(bestAsk).toBeGreaterThan(mark)
    const rates = (await zk.funding.fundingRates()).funding_rates as Rows
    expect(rates.find((r) => r.symbol === 'ETH')?.exchange).toBe('lighter')
    const keys = (await zk.account.apikeys({ account_index: account }))
      .api_keys as Rows
    expect(keys.map((k) => k.api_key_index)).toEqual([API_KEY])
  })

  test('orders: limit, post-only, IOC; cancel by index; cancel all; leverage', async () => {
    const lev = await send(
      updateLeverage({
        ...(await header()),
        marketIndex: ETH,
        initialMarginFraction: marginFractionOf(4),
        marginMode: 0,
      }),
    )
    expect(lev.tx_hash).toMatch(/^[0-9a-f]{80}$/)
    await send(await order(1, false, 0.7, 1)) // limit buy, rests
    await send(await order(2, true, 1.3, 2)) // post-only sell, rests
    await send(await order(3, false, 1.02, 0, 500)) // IOC buy, fills
    const active = (
      await zk.order.accountActiveOrders({
        account_index: account,
        market_id: ETH,
        authorization: authorization(),
      })
    ).orders as Rows
    expect(
      active.map((o) => [o.client_order_index, o.time_in_force, o.status]),
    ).toEqual([
      [1, 'good-till-time', 'open'],
      [2, 'post-only', 'open'],
    ])
    await send(
      cancelOrder({
        ...(await header()),
        marketIndex: ETH,
        index: active[0]?.order_index as number,
      }),
    )
    const all = cancelAllOrders({
      ...(await header()),
      timeInForce: LIGHTER_CANCEL_ALL.immediate,
      time: 0,
    })
    expect(all.txType).toBe(CANCEL_ALL_ORDERS_TX_TYPE)
    await send(all)
    expect(exchange.openOrders(wallet.address.toLowerCase())).toEqual([])
    expect(
      (await inactive()).map((o) => [o.client_order_index, o.status]),
    ).toEqual([
      [3, 'filled'],
      [2, 'canceled'],
      [1, 'canceled'],
    ])
    const byCoi = await zk.order.accountOrders({
      account_index: account,
      client_order_indexes: '3',
      authorization: authorization(),
    })
    expect((byCoi.orders as Rows)[0]).toMatchObject({
      filled_base_amount: '0.0500',
      side: 'buy',
      type: 'limit',
    })
  })

  test('trigger orders: a stop-loss and a take-profit wait pending, read back, canceled by index', async () => {
    // on BTC, far from its mark, so they only wait (ETH's trades and
    // position stay as the later tests expect)
    const btc = fake.state.markets.find((m) => m.symbol === 'BTC')
    const scale = 10 ** (btc?.priceDecimals ?? 0)
    const btcMark = Number(exchange.quote('BTC').mark)
    const trigger = async (
      coi: number,
      type: number,
      isAsk: boolean,
      at: number,
    ) =>
      send(
        createOrder({
          ...(await header()),
          marketIndex: btc?.marketId ?? 1,
          clientOrderIndex: coi,
          baseAmount: 10 ** (btc?.sizeDecimals ?? 0) / 1000,
          price: Math.round(btcMark * at * 0.9 * scale),
          isAsk,
          type,
          timeInForce: type === 2 ? 0 : 1,
          reduceOnly: false,
          triggerPrice: Math.round(btcMark * at * scale),
          orderExpiry: now() + 86_400_000,
        }),
      )
    // a sell stop-loss fires when the mark falls to 0.5x; a buy
    // take-profit limit when it falls to 0.6x
    await trigger(40, 2, true, 0.5)
    await trigger(41, 5, false, 0.6)
    const waiting = (
      await zk.order.accountActiveOrders({
        account_index: account,
        market_id: btc?.marketId ?? 1,
        authorization: authorization(),
      })
    ).orders as Rows
    expect(
      waiting.map((o) => [
        o.client_order_index,
        o.type,
        o.time_in_force,
        o.status,
        o.trigger_status,
        o.trigger_price,
      ]),
    ).toEqual([
      [
        40,
        'stop-loss',
        'immediate-or-cancel',
        'pending',
        'mark-price',
        (Math.round(btcMark * 0.5 * scale) / scale).toFixed(btc?.priceDecimals),
      ],
      [
        41,
        'take-profit-limit',
        'good-till-time',
        'pending',
        'mark-price',
        (Math.round(btcMark * 0.6 * scale) / scale).toFixed(btc?.priceDecimals),
      ],
    ])
    // not on the engine's book
    expect(exchange.openOrders(wallet.address.toLowerCase())).toEqual([])
    for (const o of waiting) {
      await send(
        cancelOrder({
          ...(await header()),
          marketIndex: btc?.marketId ?? 1,
          index: o.order_index as number,
        }),
      )
    }
    const after = await zk.order.accountOrders({
      account_index: account,
      client_order_indexes: '40,41',
      authorization: authorization(),
    })
    expect((after.orders as Rows).map((o) => o.status)).toEqual([
      'canceled',
      'canceled',
    ])
  })

  test('a refused tx is the client ResponseError with the venue code', async () => {
    const dup = await order(3, false, 1.02, 0)
    const err = await send(dup).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(zk.ResponseError)
    const res = (err as InstanceType<ZkLighterClient['ResponseError']>).response
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ code: 21728 })
  })

  test('sendTxBatch: two orders in one request', async () => {
    const first = await order(4, true, 1.01 - 0.05, 0, 100) // IOC sell
    const h = await header()
    const second = createOrder({
      ...h,
      nonce: h.nonce + 1,
      marketIndex: ETH,
      clientOrderIndex: 5,
      baseAmount: 100,
      price: Math.round(mark * 0.8 * 100),
      isAsk: false,
      type: 0,
      timeInForce: 1,
      reduceOnly: false,
      orderExpiry: now() + 86_400_000,
    })
    const answer = await zk.transaction.sendTxBatch({
      tx_types: JSON.stringify([first.txType, second.txType]),
      tx_infos: JSON.stringify([first.txInfo, second.txInfo]),
    })
    expect(answer.tx_hash).toEqual([first.txHash, second.txHash])
    const tx = await zk.transaction.tx({ by: 'hash', value: second.txHash })
    expect(tx).toMatchObject({
      type: 14,
      info: second.txInfo,
      nonce: h.nonce + 1,
    })
  })

  test('after funding: account, trades, candles, fundings, pnl', async () => {
    t += 2 * HOUR
    const acc = (
      await zk.account.account({ by: 'index', value: String(account) })
    ).accounts as Rows
    expect(acc[0]?.positions).toEqual([
      expect.objectContaining({
        symbol: 'ETH',
        position: '0.0400',
        sign: 1,
        initial_margin_fraction: '25.00',
      }),
    ])
    const recent = (await zk.order.recentTrades({ market_id: ETH, limit: 10 }))
      .trades as Rows
    expect(recent.map((r) => r.size)).toEqual(['0.0100', '0.0500'])
    const mine = (
      await zk.order.trades({
        sort_by: 'trade_id',
        limit: 10,
        account_index: account,
        authorization: authorization(),
      })
    ).trades as Rows
    expect(mine.map((r) => r.ask_client_id)).toEqual([4, 0])
    const candles = await zk.candlestick.candles({
      market_id: ETH,
      resolution: '1h',
      start_timestamp: t - 24 * HOUR,
      end_timestamp: t,
      count_back: 0,
    })
    expect(candles.r).toBe('1h')
    expect((candles.c as Rows).map((c) => c.v)).toEqual([0.06])
    const fundings = await zk.candlestick.fundings({
      market_id: ETH,
      resolution: '1h',
      start_timestamp: Math.floor((t - 24 * HOUR) / 1000),
      end_timestamp: Math.floor(t / 1000),
      count_back: 0,
    })

    const paid = (
      await zk.account.positionFunding({
        account_index: account,
        limit: 10,
        authorization: authorization(),
      })
    ).position_fundings as Rows
    const engine = exchange.funding(
      wallet.address.toLowerCase(),
      'ETH',
      new Date(0).toISOString(),
    )
    expect(paid.map((p) => p.change)).toEqual(engine.map((p) => p.amountUsd))
    // the market's last two settlements are the two the position paid
    const rates = (fundings.fundings as Rows).slice(-2)
    expect(rates).toHaveLength(2)
    expect(rates.map((r) => r.rate)).toEqual(
      paid.map((p) => String(p.rate).replace('-', '')),
    )
    expect(rates.map((r) => r.timestamp)).toEqual(paid.map((p) => p.timestamp))
    const pnl = await zk.account.pnl({
      by: 'index',
      value: String(account),
      resolution: '1d',
      start_timestamp: Math.floor((t - 48 * HOUR) / 1000),
      end_timestamp: Math.floor(t / 1000),
      count_back: 0,
      authorization: authorization(),
    })
    expect((pnl.pnl as Rows).length).toBeGreaterThan(0)
    const stats = await zk.order.exchangeStats()
    expect(stats.daily_trades_count).toBe(2)
  })
})

describe('ccxt lighter (no signer) against the Lighter fake', () => {
  let exchange: SimExchange
  let fake: LighterFake
  const wallet = privateKeyToAccount(generatePrivateKey())

  /** ccxt's public and root URLs on the fake; the account by address */
  const client = () =>
    new ccxt.lighter({
      walletAddress: wallet.address,
      urls: { api: { root: fake.url, public: fake.url, private: fake.url } },
      // fetchBalance reads the perp collateral, not spot assets
      options: { defaultType: 'swap' },
      // the fake enforces Lighter's limits itself
      enableRateLimit: false,
    })

  beforeAll(async () => {
    exchange = createSimExchange({
      venue: 'lighter-mainnet',
      seed: 84,
      clock: { now: () => Date.now() },
    })
    fake = await startLighterFake({
      exchange,
      venue: 'lighter-mainnet',
      rateLimits: { lighterTier: 'builder', now: Date.now },
    })
    exchange.faucet(wallet.address.toLowerCase(), 25_000)
    exchange.place(wallet.address.toLowerCase(), {
      market: 'BTC',
      side: 'short',
      size: '0.01',
      price: String(Number(exchange.quote('BTC').mark) * 0.9),
      timeInForce: 'ioc',
      reduceOnly: false,
      clientOrderId: 'ccxt-seed-1',
    })
  })
  afterAll(() => fake?.close())

  test('markets, balance, positions, book, funding rates, ticker', async () => {
    const lighter = client()
    const markets = await lighter.loadMarkets()
    expect(markets['ETH/USDC:USDC']).toMatchObject({
      id: '0',
      swap: true,
      precision: { amount: 0.0001, price: 0.01 },
    })
    expect(lighter.currencies.USDC?.id).toBe('3')
    const balance = await lighter.fetchBalance()
    expect(balance.USDC?.total).toBe(25_000)
    const positions = await lighter.fetchPositions()
    expect(positions.map((p) => [p.symbol, p.side, p.contracts])).toEqual([
      ['BTC/USDC:USDC', 'short', 0.01],
    ])
    const book = await lighter.fetchOrderBook('ETH/USDC:USDC', 5)
    expect(book.bids[0]?.[0]).toBeLessThan(book.asks[0]?.[0] ?? 0)
    const rates = await lighter.fetchFundingRates()
    expect(Object.keys(rates).sort()).toEqual([
      'BTC/USDC:USDC',
      'ETH/USDC:USDC',
      'SOL/USDC:USDC',
    ])
    const ticker = await lighter.fetchTicker('ETH/USDC:USDC')
    expect(ticker.symbol).toBe('ETH/USDC:USDC')
  })
})
