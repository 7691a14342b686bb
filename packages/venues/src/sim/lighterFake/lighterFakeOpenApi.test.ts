import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { lighterEndpointWeight } from '../../lighter/limits/lighterEndpointWeight.js'
import { cancelOrder } from '../../lighter/signer/cancelOrder.js'
import { createOrder } from '../../lighter/signer/createOrder.js'
import type { LighterSignedTx } from '../../lighter/signer/types.js'
import { updateLeverage } from '../../lighter/signer/updateLeverage.js'
import { loadLighterOpenApi } from '../testing/lighterOpenApi.js'
import {
  type LighterTestBed,
  openLighterTestBed,
} from '../testing/lighterTestBed.js'
import { type LighterTxKit, lighterTxKit } from '../testing/lighterTxKit.js'

type Json = Record<string, unknown>
type Rows = Json[]

const spec = loadLighterOpenApi()
const HOUR = 3_600_000
const DAY = 24 * HOUR

/**
 * Every path the Lighter fake serves, in a state with a position, open,
 * filled and canceled orders, trades and funding, answers what the
 * venue's own API description (zklighter-perps' `openapi.json`) says.
 */
describe('Lighter fake answers match the OpenAPI spec', () => {
  let t = Math.floor(Date.now() / HOUR) * HOUR + 5 * 60_000
  const clock = { now: () => t }
  let bed: LighterTestBed
  let kit: LighterTxKit
  let mark: number
  const hashes: Record<string, string> = {}
  const infos: Record<string, string> = {}

  const url = (path: string) => `${bed.fake.url}/api/v1/${path}`
  /** GET with the account's token in the query's `authorization` */
  const get = async (path: string, auth = false) => {
    const sep = path.includes('?') ? '&' : '?'
    const full = auth ? `${path}${sep}authorization=${kit.authToken()}` : path
    const res = await fetch(url(full))
    return { status: res.status, body: (await res.json()) as Json }
  }
  /** a read that must succeed and conform to its 200 schema */
  const read = async (path: string, auth = false) => {
    const { status, body } = await get(path, auth)
    expect(body.code, JSON.stringify(body)).toBe(200)
    expect(status).toBe(200)
    const op = `/api/v1/${path.split('?')[0]}`
    expect(spec.errors('GET', op, body)).toEqual([])
    return body
  }
  const multipart = (fields: Record<string, string>) => {
    const form = new FormData()
    for (const [k, v] of Object.entries(fields)) form.append(k, v)
    return form
  }
  const sendTx = async (tx: LighterSignedTx, name: string) => {
    const res = await fetch(url('sendTx'), {
      method: 'POST',
      body: multipart({ tx_type: String(tx.txType), tx_info: tx.txInfo }),
    })
    const body = (await res.json()) as Json
    expect(body.code, JSON.stringify(body)).toBe(200)
    expect(spec.errors('POST', '/api/v1/sendTx', body)).toEqual([])
    hashes[name] = body.tx_hash as string
    infos[name] = tx.txInfo
    return body
  }
  const ethOrder = (
    coi: number,
    side: 'buy' | 'sell',
    priceFactor: number,
    tif: 0 | 1 | 2,
    ahead = 0,
  ) =>
    createOrder({
      ...kit.header(ahead),
      privateKey: kit.privateKey,
      marketIndex: 0,
      clientOrderIndex: coi,
      baseAmount: side === 'buy' && tif === 0 ? 500 : 100,
      price: Math.round(mark * priceFactor * 100),
      isAsk: side === 'sell',
      type: 0,
      timeInForce: tif,
      reduceOnly: false,
      orderExpiry: tif === 0 ? 0 : t + 7 * DAY,
    })

  beforeAll(async () => {
    bed = await openLighterTestBed('lighter-mainnet', 71, clock)
    kit = lighterTxKit(bed, clock.now)
    mark = Number(bed.exchange.quote('ETH').mark)
    await sendTx(
      updateLeverage({
        ...kit.header(),
        privateKey: kit.privateKey,
        marketIndex: 0,
        initialMarginFraction: 2000,
        marginMode: 0,
      }),
      'leverage',
    )
    await sendTx(ethOrder(101, 'buy', 1.05, 0), 'filled')
    await sendTx(ethOrder(102, 'buy', 0.5, 1), 'open')
    await sendTx(ethOrder(103, 'sell', 1.5, 2), 'postOnly')
    const postOnly = bed.fake.state.orders.get(`${kit.accountIndex}:103`)
    await sendTx(
      cancelOrder({
        ...kit.header(),
        privateKey: kit.privateKey,
        marketIndex: 0,
        index: postOnly?.orderIndex ?? 0,
      }),
      'cancel',
    )
    // a batch, urlencoded this time: an IOC sell that fills, a resting buy
    const sell = ethOrder(104, 'sell', 0.95, 0)
    const rest = ethOrder(105, 'buy', 0.6, 1, 1)
    const res = await fetch(url('sendTxBatch'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        tx_types: JSON.stringify([sell.txType, rest.txType]),
        tx_infos: JSON.stringify([sell.txInfo, rest.txInfo]),
      }).toString(),
    })
    const batch = (await res.json()) as Json
    expect(spec.errors('POST', '/api/v1/sendTxBatch', batch)).toEqual([])
    expect(batch.tx_hash).toEqual([sell.txHash, rest.txHash])
    hashes.sell = sell.txHash
    // trigger orders on BTC (kept off ETH's trades and position): a
    // stop-loss far below the mark that waits, and a buy stop-loss limit
    // already crossed that fires at the next request and rests
    const btc = bed.fake.state.markets.find((m) => m.symbol === 'BTC')
    const btcMark = Number(bed.exchange.quote('BTC').mark)
    const btcPx = (f: number) =>
      Math.round(btcMark * f * 10 ** (btc?.priceDecimals ?? 0))
    const trigger = (coi: number, type: number, isAsk: boolean, f: number) =>
      createOrder({
        ...kit.header(),
        privateKey: kit.privateKey,
        marketIndex: btc?.marketId ?? 1,
        clientOrderIndex: coi,
        baseAmount: 10 ** (btc?.sizeDecimals ?? 0) / 1000,
        price: btcPx(0.5),
        isAsk,
        type,
        timeInForce: type === 2 ? 0 : 1,
        reduceOnly: false,
        triggerPrice: btcPx(f),
        orderExpiry: t + 7 * DAY,
      })
    await sendTx(trigger(106, 2, true, 0.5), 'waitingTrigger')
    await sendTx(trigger(107, 3, false, 0.6), 'firedTrigger')
    // two funding settlements pass with the position open
    t += 2 * HOUR
  })
  afterAll(() => bed?.fake.close())

  test('status, markets and books', async () => {
    const res = await fetch(bed.fake.url)
    const status = (await res.json()) as Json
    expect(spec.errors('GET', '/', status)).toEqual([])
    expect(status.network_id).toBe(304)

    const books = await read('orderBooks')
    expect((books.order_books as Rows).map((r) => r.symbol).sort()).toEqual([
      'BTC',
      'ETH',
      'SOL',
    ])
    const details = await read('orderBookDetails?market_id=0')
    const eth = (details.order_book_details as Rows)[0] as Json
    expect(eth).toMatchObject({ symbol: 'ETH', size_decimals: 4 })
    expect(eth.daily_trades_count).toBe(2)
    expect(eth.open_interest).toBe(0.04)
    expect(
      (await read('orderBookDetails?filter=spot')).order_book_details,
    ).toEqual([])
    const book = await read('orderBookOrders?market_id=0&limit=5')
    expect(book.asks as Rows).toHaveLength(5)
    const stats = await read('exchangeStats')
    expect(stats.daily_trades_count).toBe(2)
    const assets = await read('assetDetails')
    expect((assets.asset_details as Rows)[0]?.symbol).toBe('USDC')
    const rates = await read('funding-rates')
    expect((rates.funding_rates as Rows).length).toBe(3)
  })

  test('trades, candles, fundings', async () => {
    const recent = (await read('recentTrades?market_id=0&limit=10'))
      .trades as Rows
    expect(recent.map((r) => r.size)).toEqual(['0.0100', '0.0500'])
    expect(recent.map((r) => r.tx_hash)).toEqual([hashes.sell, hashes.filled])
    const mine = (
      await read(
        `trades?account_index=${kit.accountIndex}&sort_by=trade_id&limit=10`,
        true,
      )
    ).trades as Rows
    expect(mine).toHaveLength(2)
    expect(mine[1]).toMatchObject({
      bid_account_id: kit.accountIndex,
      bid_client_id: 101,
      type: 'trade',
    })
    const asks = await read(
      `trades?account_index=${kit.accountIndex}&sort_by=timestamp&limit=10&ask_filter=1`,
      true,
    )
    expect((asks.trades as Rows).map((r) => r.ask_client_id)).toEqual([104])
    const noAuth = await get(
      `trades?account_index=${kit.accountIndex}&sort_by=trade_id&limit=10`,
    )
    expect(noAuth.status).toBe(400)
    expect(spec.errors('GET', '/api/v1/trades', noAuth.body, 400)).toEqual([])

    const c = await read(
      `candles?market_id=0&resolution=1h&start_timestamp=${t - DAY}&end_timestamp=${t}&count_back=0`,
    )
    const volume = (c.c as Rows).reduce((s, r) => s + (r.v as number), 0)
    expect(volume).toBeCloseTo(0.06, 10)
    const f = await read(
      `fundings?market_id=0&resolution=1h&start_timestamp=${Math.floor((t - DAY) / 1000)}&end_timestamp=${Math.floor(t / 1000)}&count_back=0`,
    )
    // every hourly settlement of the day, the engine's rates
    const rows = f.fundings as Rows
    expect(rows).toHaveLength(24)
    const settled = bed.exchange.fundingRates('ETH', t - DAY, t, 100)
    expect(rows.map((r) => r.timestamp)).toEqual(
      settled.map((r) => r.time / 1000),
    )
    expect(
      (
        await read(
          `fundings?market_id=0&resolution=1d&start_timestamp=0&end_timestamp=${Math.floor(t / 1000)}&count_back=3`,
        )
      ).fundings as Rows,
    ).toHaveLength(3)
  })

  test('account, keys, nonce, orders, funding, pnl', async () => {
    const byAddress = await read(`accountsByL1Address?l1_address=${bed.owner}`)
    expect((byAddress.sub_accounts as Rows)[0]?.index).toBe(kit.accountIndex)
    const acc = await read(`account?by=index&value=${kit.accountIndex}`)
    const detailed = (acc.accounts as Rows)[0] as Json
    // two resting on ETH, a waiting and a fired trigger order on BTC
    expect(detailed.total_order_count).toBe(4)
    expect(detailed.positions as Rows).toEqual([
      expect.objectContaining({
        symbol: 'ETH',
        position: '0.0400',
        sign: 1,
        open_order_count: 2,
        initial_margin_fraction: '20.00',
      }),
    ])
    await read(`account?by=l1_address&value=${bed.owner}`)
    const keys = await read(`apikeys?account_index=${kit.accountIndex}`)
    expect((keys.api_keys as Rows)[0]?.api_key_index).toBe(kit.apiKeyIndex)
    const nonce = await read(
      `nextNonce?account_index=${kit.accountIndex}&api_key_index=${kit.apiKeyIndex}`,
    )
    expect(nonce.nonce).toBe(kit.header().nonce)

    const byCoi = await read(
      `accountOrders?account_index=${kit.accountIndex}&client_order_indexes=101,103`,
      true,
    )
    expect(
      (byCoi.orders as Rows).map((o) => [o.client_order_index, o.status]),
    ).toEqual([
      [101, 'filled'],
      [103, 'canceled'],
    ])
    const active = await read(
      `accountActiveOrders?account_index=${kit.accountIndex}&market_id=0`,
      true,
    )
    expect((active.orders as Rows).map((o) => o.client_order_index)).toEqual([
      102, 105,
    ])
    const triggers = await read(
      `accountActiveOrders?account_index=${kit.accountIndex}&market_id=1`,
      true,
    )
    expect(
      (triggers.orders as Rows).map((o) => [
        o.client_order_index,
        o.type,
        o.status,
        o.trigger_status,
      ]),
    ).toEqual([
      [106, 'stop-loss', 'pending', 'mark-price'],
      [107, 'stop-loss-limit', 'open', 'na'],
    ])
    const inactive = await read(
      `accountInactiveOrders?account_index=${kit.accountIndex}&limit=10`,
      true,
    )
    expect(
      (inactive.orders as Rows).map((o) => [o.client_order_index, o.status]),
    ).toEqual([
      [104, 'filled'],
      [103, 'canceled'],
      [101, 'filled'],
    ])
    const funding = await read(
      `positionFunding?account_index=${kit.accountIndex}&limit=10`,
      true,
    )
    expect((funding.position_fundings as Rows).length).toBe(2)
    const pnl = await read(
      `pnl?by=index&value=${kit.accountIndex}&resolution=1h&start_timestamp=${t - DAY}&end_timestamp=${t}&count_back=0`,
      true,
    )
    const volume = (pnl.pnl as Rows).reduce(
      (s, r) => s + (r.volume as number),
      0,
    )
    expect(volume).toBeGreaterThan(0)
  })

  test('tx by hash and by sequence index', async () => {
    const tx = await read(`tx?by=hash&value=${hashes.filled}`)
    expect(tx).toMatchObject({
      type: 14,
      info: infos.filled,
      account_index: kit.accountIndex,
    })
    // the test bed's binding registered the key first: ChangePubKey (8)
    const first = await read('tx?by=sequence_index&value=1')
    expect(first).toMatchObject({ sequence_index: 1, type: 8 })
    expect(tx.sequence_index).toBeGreaterThan(1)
    const missing = await get(`tx?by=hash&value=${'0'.repeat(80)}`)
    expect(missing.body.code).toBe(21500)
  })

  test('bad requests get the venue error shape, never a crash', async () => {
    for (const path of [
      'candles?market_id=0&resolution=2h&start_timestamp=0&end_timestamp=1&count_back=0',
      'recentTrades?market_id=0&limit=101',
      'orderBookOrders?market_id=999&limit=5',
      'accountInactiveOrders?account_index=1&limit=10',
    ]) {
      const { status, body } = await get(path)
      expect(status).toBe(400)
      const op = `/api/v1/${path.split('?')[0]}`
      expect(spec.errors('GET', op, body, 400)).toEqual([])
    }
    const res = await fetch(url('sendTxBatch'), {
      method: 'POST',
      body: multipart({ tx_types: '[14]', tx_infos: 'not json' }),
    })
    expect(res.status).toBe(400)
    expect(((await res.json()) as Json).code).toBe(21501)
    const a = ethOrder(201, 'buy', 0.5, 1)
    const b = ethOrder(202, 'buy', 0.5, 1)
    const sameNonce = await fetch(url('sendTxBatch'), {
      method: 'POST',
      body: multipart({
        tx_types: JSON.stringify([a.txType, b.txType]),
        tx_infos: JSON.stringify([a.txInfo, b.txInfo]),
      }),
    })
    expect(((await sameNonce.json()) as Json).code).toBe(21105)
    expect(bed.fake.state.orders.has(`${kit.accountIndex}:201`)).toBe(false)
    const broken = await fetch(url('sendTx'), {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      body: '--x\r\nno headers here--x--',
    })
    expect(broken.status).toBe(400)
  })

  test('new paths are charged their published weight', async () => {
    const total = () =>
      bed.fake.rateLimitUsage().reduce((s, b) => s + b.weight, 0)
    for (const path of [
      `trades?sort_by=trade_id&limit=1`,
      'recentTrades?market_id=0&limit=1',
      `accountInactiveOrders?account_index=${kit.accountIndex}&limit=1`,
      'exchangeStats',
    ]) {
      const before = total()
      await get(path, path.startsWith('account'))
      expect(total() - before).toBe(lighterEndpointWeight(path))
    }
  })
})
