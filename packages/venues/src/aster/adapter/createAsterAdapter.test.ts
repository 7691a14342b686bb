import {
  roundPrice,
  UncertainSubmissionError,
  type VenueCredential,
  type VenueOrderRequest,
  VenueRejectedError,
  VenueUnavailableError,
} from '@dn/core'
import type { Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  bindAsterWallet,
  NO_FEE_CONFIG,
} from '../../sim/asterFake/asterTestKit.js'
import {
  type AsterFake,
  startAsterFake,
} from '../../sim/asterFake/startAsterFake.js'
import { createSimExchange } from '../../sim/simExchange.js'
import { SIM_MARKETS } from '../../sim/simMarkets.js'
import { signAsterMessage } from '../signing/asterMessage.js'
import { formEncode } from '../signing/formEncode.js'
import { AsterRejectedError } from './asterRejectedError.js'
import { createAsterBudget } from './asterTransport.js'
import { createAsterAdapter } from './createAsterAdapter.js'

const cloid = () =>
  `0x${[...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('')}`

/** A venue refusal with Aster's code. */
async function refusedWith(p: Promise<unknown>, code: number) {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(AsterRejectedError)
  expect((err as AsterRejectedError).venueCode).toBe(code)
  return err as AsterRejectedError
}

describe('Aster adapter against the signature-checking fake', () => {
  const exchange = createSimExchange({
    venue: 'aster',
    seed: 13,
    clock: { now: () => Date.now() },
  })
  let fake: AsterFake
  let cred: VenueCredential
  let adapter: ReturnType<typeof createAsterAdapter>
  beforeAll(async () => {
    fake = await startAsterFake({ exchange, port: 0 })
    adapter = createAsterAdapter({ baseUrl: fake.url })
    cred = (await bindAsterWallet(fake.url, exchange)).cred
  })
  afterAll(() => fake.close())

  async function order(
    over: Partial<VenueOrderRequest> = {},
  ): Promise<VenueOrderRequest> {
    const rules = await adapter.rules('ETHUSDT')
    const mark = Number((await adapter.quote('ETHUSDT')).mark)
    if (!rules) throw new Error('ETHUSDT not listed')
    return {
      market: 'ETHUSDT',
      side: 'long',
      size: '0.01',
      price: roundPrice(rules, mark * 1.01, 'up').toFixed(),
      timeInForce: 'ioc',
      reduceOnly: false,
      clientOrderId: cloid(),
      ...over,
    }
  }

  test('default: rules and quote read exchangeInfo, premiumIndex, fundingInfo and bookTicker', async () => {
    const engine = exchange.rules('BTCUSDT')
    expect(await adapter.rules('BTCUSDT')).toEqual({
      venue: 'aster',
      symbol: 'BTCUSDT',
      tickSize: engine?.tickSize,
      maxSigFigs: null,
      sizeStep: engine?.sizeStep,
      minNotionalUsd: engine?.minNotionalUsd,
      minBase: engine?.minBase,
      maxLeverage: 20,
    })
    const q = await adapter.quote('BTCUSDT')
    const e = exchange.quote('BTCUSDT')
    // lastFundingRate is per 8 h interval; the port wants hourly
    expect(q.fundingRateHourly).toBe(e.fundingRateHourly)
    expect(Number(q.bid)).toBeLessThan(Number(q.ask))
    expect(await adapter.rules('NOPEUSDT')).toBeUndefined()
  })

  test('default: accountReadsPerMinute is the routine REQUEST_WEIGHT over positionRisk weight 5', () => {
    // 2,400 a minute at share 0.5, routine ceiling 0.75: 900 weight,
    // held 62 s (the window and the delivery margin): 174.2 reads
    expect(adapter.accountReadsPerMinute?.()).toBeCloseTo((180 * 60) / 62)
  })

  test('default: an IOC fills and shows as a signed position with its settings', async () => {
    const o = await order({ side: 'short', price: '1' })
    const r = await adapter.rules('ETHUSDT')
    const mark = Number((await adapter.quote('ETHUSDT')).mark)
    const placed = await adapter.place(cred, {
      ...o,
      price: roundPrice(r as never, mark * 0.99, 'down').toFixed(),
    })
    expect(placed).toMatchObject({
      state: 'filled',
      filledBase: '0.01',
      venueStatus: 'FILLED',
    })
    const pos = (await adapter.positions(cred)).find(
      (p) => p.market === 'ETHUSDT',
    )
    expect(pos).toMatchObject({
      size: '-0.01',
      leverage: '10',
      marginMode: 'cross',
    })
    expect(pos?.liquidationPrice).not.toBe('0')
  })

  test('default: balances are one accountWithJoinMargin (weight 5); one as young as asked serves again', async () => {
    const weight = () =>
      fake
        .rateLimitUsage()
        .filter((b) => b.limit === 'REQUEST_WEIGHT')
        .reduce((n, b) => n + b.requests, 0)
    const sent = weight()
    const b = await adapter.balances?.(cred)
    expect(weight()).toBe(sent + 1)
    const account = exchange.account(cred.owner)
    expect(Number(b?.equityUsd)).toBeGreaterThan(0)
    expect(
      Math.abs(Number(b?.equityUsd) - Number(account.crossEquityUsd)) /
        Number(account.crossEquityUsd),
    ).toBeLessThan(0.001)
    // the IOC test left a short: its margin is held
    expect(Number(b?.marginUsedUsd)).toBeGreaterThan(0)
    expect(await adapter.balances?.(cred, { maxAgeMs: 60_000 })).toEqual(b)
    expect(weight()).toBe(sent + 1)
  })

  test('error: a tampered body fails the signature check (-1022), nothing placed', async () => {
    const o = await order()
    const tampering = createAsterAdapter({
      baseUrl: fake.url,
      fetchFn: (url, init) =>
        globalThis.fetch(url, {
          ...init,
          body:
            typeof init?.body === 'string'
              ? init.body.replace('quantity=0.01', 'quantity=0.02')
              : init?.body,
        } as RequestInit),
    })
    const err = await refusedWith(tampering.place(cred, o), -1022)
    expect(err.reason).toBe('Signature for this request is not valid.')
    expect(
      exchange.stats().byClientOrderId.get(o.clientOrderId),
    ).toBeUndefined()
  })

  test('error: an agent the wallet never approved is refused', async () => {
    const stranger = { ...cred, secret: generatePrivateKey() }
    await refusedWith(adapter.place(stranger, await order()), -2015)
    await refusedWith(adapter.positions(stranger), -2015)
  })

  // -4225 refuses the request whole: "not done", sent again signed anew
  const nonceExpired = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(err).toBeInstanceOf(VenueUnavailableError)
    expect((err as Error).message).toMatch(/not done: Nonce Expired/)
  }

  test('error: a reused nonce is refused (-4225 Nonce Expired), not done', async () => {
    const fixed = Date.now() * 1000
    const replaying = createAsterAdapter({
      baseUrl: fake.url,
      nonceSource: async () => fixed,
    })
    // the first read spends the nonce, the second reuses it
    await replaying.positions(cred)
    await nonceExpired(replaying.positions(cred))
  })

  test('error: a nonce 20 s behind the venue clock is refused, not done', async () => {
    const late = createAsterAdapter({
      baseUrl: fake.url,
      clock: { now: () => Date.now() - 20_000 },
    })
    await nonceExpired(late.order(cred, 'ETHUSDT', cloid()))
    await nonceExpired(late.place(cred, await order()))
  })

  test('behavior: a shared nonce source (store counter) is used for every request', async () => {
    let counter = 0
    const seen: [string, number][] = []
    const source = async (signer: string, nowUs: number) => {
      counter = Math.max(counter + 1, nowUs)
      seen.push([signer, counter])
      return counter
    }
    const a = createAsterAdapter({ baseUrl: fake.url, nonceSource: source })
    const b = createAsterAdapter({ baseUrl: fake.url, nonceSource: source })
    expect(await a.order(cred, 'ETHUSDT', cloid())).toBeNull()
    expect(await b.order(cred, 'ETHUSDT', cloid())).toBeNull()
    expect(seen).toHaveLength(2)
    expect(seen[0]?.[0]).toBe(cred.credentialRef?.toLowerCase())
  })

  test('error: a price finer than the tick is refused (-1111), nothing placed', async () => {
    const o = await order({ timeInForce: 'gtc' })
    const off = { ...o, price: `${Number(o.price).toFixed(2)}5` }
    const err = await refusedWith(adapter.place(cred, off), -1111)
    expect(err.reason).toBe(
      'Precision is over the maximum defined for this asset.',
    )
    expect(
      exchange.stats().byClientOrderId.get(o.clientOrderId),
    ).toBeUndefined()
  })

  test('error: margin and min notional refusals carry the venue message', async () => {
    const o = await order({ timeInForce: 'gtc', size: '1000' })
    const margin = await refusedWith(adapter.place(cred, o), -2019)
    expect(margin.reason).toBe('Margin is insufficient.')
    const tiny = await order({ size: '0.001', price: '100' })
    await refusedWith(adapter.place(cred, { ...tiny, side: 'long' }), -4164)
  })

  test('behavior: 503 after the venue accepted is uncertain; the order is then found once', async () => {
    const o = await order()
    exchange.setFaults({ timeoutAfterAcceptRate: 1 })
    try {
      await expect(adapter.place(cred, o)).rejects.toBeInstanceOf(
        UncertainSubmissionError,
      )
    } finally {
      exchange.setFaults({})
    }
    expect(await adapter.order(cred, 'ETHUSDT', o.clientOrderId)).toMatchObject(
      { clientOrderId: o.clientOrderId, state: 'filled', filledBase: '0.01' },
    )
    expect(exchange.stats().byClientOrderId.get(o.clientOrderId)).toBe(1)
  })

  test('behavior: an outage (503) is unavailable for reads, uncertain for orders', async () => {
    const o = await order()
    exchange.setFaults({ outage: true })
    try {
      await expect(adapter.positions(cred)).rejects.toMatchObject({
        code: 'venue_unavailable',
      })
      // 503 means "status unknown" on Aster: never assumed not placed
      await expect(adapter.place(cred, o)).rejects.toBeInstanceOf(
        UncertainSubmissionError,
      )
    } finally {
      exchange.setFaults({})
    }
    expect(await adapter.order(cred, 'ETHUSDT', o.clientOrderId)).toBeNull()
  })

  test('behavior: post-only rests as GTX and is cancelled by client order id', async () => {
    const o = await order({ timeInForce: 'post_only', price: '3000' })
    expect((await adapter.place(cred, o)).state).toBe('open')
    await adapter.cancel(cred, 'ETHUSDT', o.clientOrderId)
    expect((await adapter.order(cred, 'ETHUSDT', o.clientOrderId))?.state).toBe(
      'cancelled',
    )
    // final, and unknown: cancel resolves
    await adapter.cancel(cred, 'ETHUSDT', o.clientOrderId)
    await adapter.cancel(cred, 'ETHUSDT', cloid())
  })

  test('behavior: orders and positions ask no positionSide/dual (weight 30 an owner)', async () => {
    const { cred: owner } = await bindAsterWallet(fake.url, exchange)
    const paths: string[] = []
    const fresh = createAsterAdapter({
      baseUrl: fake.url,
      fetchFn: (input, init) => {
        paths.push(new URL(String(input)).pathname)
        return fetch(input, init)
      },
    })
    await fresh.place(owner, await order())
    expect(await fresh.positions(owner)).toHaveLength(1)
    await fresh.place(owner, await order())
    expect(paths.filter((p) => p.endsWith('/order'))).toHaveLength(2)
    expect(paths.filter((p) => p.endsWith('/positionSide/dual'))).toEqual([])
  })

  test('error: a Hedge Mode account is refused with a clear reason', async () => {
    const { cred: hedged } = await bindAsterWallet(fake.url, exchange)
    // switch the account to Hedge Mode over the protocol, as a user would
    const key = hedged.secret as Hex
    const msg = formEncode([
      ['dualSidePosition', 'true'],
      ['nonce', String(Date.now() * 1000)],
      ['user', hedged.owner],
      ['signer', privateKeyToAccount(key).address],
    ])
    const signature = await signAsterMessage({
      privateKey: key,
      msg,
      chainId: 1666,
    })
    const res = await fetch(`${fake.url}/fapi/v3/positionSide/dual`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `${msg}&signature=${signature}`,
    })
    expect(await res.json()).toEqual({ code: 200, msg: 'success' })
    const fresh = createAsterAdapter({ baseUrl: fake.url })
    const o = await order()
    // the venue's own refusal (-4061), nothing placed: a rejection, not
    // an outcome to look up
    const refused = await fresh.place(hedged, o).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(VenueRejectedError)
    expect(String(refused)).toMatch(/Hedge Mode.*One-way Mode/)
    // no position held: nothing to read wrongly
    expect(await fresh.positions(hedged)).toEqual([])
    // one held in Hedge Mode (opened elsewhere): its rows are refused
    exchange.place(hedged.owner, { ...o, clientOrderId: cloid() })
    await expect(fresh.positions(hedged)).rejects.toBeInstanceOf(
      VenueRejectedError,
    )
    expect(
      exchange.stats().byClientOrderId.get(o.clientOrderId),
    ).toBeUndefined()
  })
})

describe('Aster adapter: builder fee, funding, tick grid', () => {
  let now = Date.parse('2026-03-01T10:00:00Z')
  // a clock that moves: every reading is a millisecond later
  const clock = { now: () => ++now }
  const exchange = createSimExchange({
    venue: 'aster',
    seed: 17,
    clock,
    markets: [
      ...SIM_MARKETS,
      {
        venue: 'aster',
        symbol: 'DOGEUSDT',
        tickSize: '0.05',
        maxSigFigs: null,
        sizeStep: '1',
        minNotionalUsd: '5',
        minBase: '1',
        maxLeverage: 20,
        initialMark: '10',
        fundingRateHourly: '0.00001',
      },
    ],
  })
  const builder = '0x1111111111111111111111111111111111111111'
  let fake: AsterFake
  beforeAll(async () => {
    fake = await startAsterFake({ exchange, port: 0, now: clock.now })
  })
  afterAll(() => fake.close())

  test('default: the approved builder and its fee rate ride on every order', async () => {
    const { cred } = await bindAsterWallet(fake.url, exchange, {
      config: { ...NO_FEE_CONFIG, feeApproval: true, builderAddress: builder },
      clock,
    })
    expect(fake.builderCap(cred.owner, builder)).toBe('0.001')
    const adapter = createAsterAdapter({
      baseUrl: fake.url,
      clock,
      builder: { address: builder, feeRate: '0.00015' },
    })
    const id = cloid()
    const mark = Number((await adapter.quote('SOLUSDT')).mark)
    await adapter.place(cred, {
      market: 'SOLUSDT',
      side: 'long',
      size: '1',
      price: (Math.ceil(mark * 101) / 100).toFixed(2),
      timeInForce: 'ioc',
      reduceOnly: false,
      clientOrderId: id,
    })
    expect(fake.orderBuilder(cred.owner, id)).toEqual({
      builder: '0x1111111111111111111111111111111111111111',
      feeRate: '0.00015',
    })
    // a strategy leg paired with a Lighter venue pays twice the base fee
    const paired = cloid()
    await adapter.place(cred, {
      market: 'SOLUSDT',
      side: 'long',
      size: '1',
      price: (Math.ceil(mark * 101) / 100).toFixed(2),
      timeInForce: 'ioc',
      reduceOnly: false,
      clientOrderId: paired,
      pairedWithLighter: true,
    })
    expect(fake.orderBuilder(cred.owner, paired)?.feeRate).toBe('0.0003')
    // the rate the worker books builder fees at is the one sent
    expect(adapter.builderFeeRate?.(false)).toBe('0.00015')
    expect(adapter.builderFeeRate?.(true)).toBe('0.0003')
    expect(
      createAsterAdapter({ baseUrl: fake.url }).builderFeeRate?.(true),
    ).toBe('0')
    // funding settles hourly on the engine and is read back as income
    now += 2 * 3_600_000 + 1_000
    const paid = await adapter.funding(
      cred,
      'SOLUSDT',
      new Date(now - 3 * 3_600_000).toISOString(),
    )
    const engine = exchange.funding(
      cred.owner,
      'SOLUSDT',
      new Date(0).toISOString(),
    )
    expect(engine.length).toBeGreaterThanOrEqual(2)
    expect(paid.map((p) => [p.time, p.amountUsd])).toEqual(
      engine.map((p) => [p.time, p.amountUsd]),
    )
  })

  test('behavior: one income read an hour serves every market and cursor of the account', async () => {
    const { cred } = await bindAsterWallet(fake.url, exchange, { clock })
    const incomeReads: string[] = []
    const adapter = createAsterAdapter({
      baseUrl: fake.url,
      clock,
      fetchFn: (async (url: string, init?: RequestInit) => {
        if (String(url).includes('/fapi/v3/income'))
          incomeReads.push(String(url))
        return fetch(url, init)
      }) as typeof fetch,
    })
    const rules = await adapter.rules('ETHUSDT')
    const tick = Number(rules?.tickSize)
    for (const market of ['ETHUSDT', 'SOLUSDT']) {
      const mark = Number((await adapter.quote(market)).mark)
      await adapter.place(cred, {
        market,
        side: 'long',
        size: market === 'ETHUSDT' ? '0.01' : '1',
        price: (Math.ceil((mark * 1.01) / tick) * tick).toFixed(2),
        timeInForce: 'ioc',
        reduceOnly: false,
        clientOrderId: cloid(),
      })
    }
    now += 2 * 3_600_000 + 1_000
    const since = new Date(now - 3 * 3_600_000).toISOString()
    const [eth, sol] = await Promise.all([
      adapter.funding(cred, 'ETHUSDT', since),
      adapter.funding(cred, 'SOLUSDT', since),
    ])
    expect(incomeReads).toHaveLength(1)
    expect(incomeReads[0]).not.toContain('symbol=')
    for (const [market, paid] of [
      ['ETHUSDT', eth],
      ['SOLUSDT', sol],
    ] as const) {
      const engine = exchange.funding(cred.owner, market, since)
      expect(engine.length).toBeGreaterThanOrEqual(2)
      expect(paid.map((p) => [p.market, p.time, p.amountUsd])).toEqual(
        engine.map((p) => [market, p.time, p.amountUsd]),
      )
    }
    // cursors in one hour (its start, just after its payment) share one
    // read from the hour, and each keeps the payments at or after it
    const first = Date.parse(eth[0]?.time as string)
    const hour = new Date(first - (first % 3_600_000)).toISOString()
    const [all, rest] = await Promise.all([
      adapter.funding(cred, 'ETHUSDT', hour),
      adapter.funding(cred, 'ETHUSDT', new Date(first + 1).toISOString()),
    ])
    expect(all.length).toBe(eth.length)
    expect(rest.length).toBe(eth.length - 1)
    expect(incomeReads).toHaveLength(2)
    expect(incomeReads[1]).toContain(`startTime=${Date.parse(hour)}`)
  })

  test('error: an off-tick price is refused by the venue (-4014), nothing placed', async () => {
    const { cred } = await bindAsterWallet(fake.url, exchange, { clock })
    const adapter = createAsterAdapter({ baseUrl: fake.url, clock })
    expect((await adapter.rules('DOGEUSDT'))?.tickSize).toBe('0.05')
    const id = cloid()
    const err = await refusedWith(
      adapter.place(cred, {
        market: 'DOGEUSDT',
        side: 'long',
        size: '10',
        price: '9.02',
        timeInForce: 'gtc',
        reduceOnly: false,
        clientOrderId: id,
      }),
      -4014,
    )
    expect(err.reason).toBe('Price not increased by tick size.')
    expect(exchange.stats().byClientOrderId.get(id)).toBeUndefined()
  })

  test('error: a builder the wallet did not approve is refused', async () => {
    const { cred } = await bindAsterWallet(fake.url, exchange, { clock })
    const adapter = createAsterAdapter({
      baseUrl: fake.url,
      clock,
      builder: { address: builder, feeRate: '0.0003' },
    })
    const mark = Number((await adapter.quote('SOLUSDT')).mark)
    await refusedWith(
      adapter.place(cred, {
        market: 'SOLUSDT',
        side: 'long',
        size: '1',
        price: (Math.ceil(mark * 101) / 100).toFixed(2),
        timeInForce: 'ioc',
        reduceOnly: false,
        clientOrderId: cloid(),
      }),
      -1130,
    )
    expect(() =>
      createAsterAdapter({
        baseUrl: fake.url,
        builder: { address: builder, feeRate: '0.002' },
      }),
    ).toThrow(RangeError)
  })
})

describe('Aster adapter within the limits the venue publishes', () => {
  const exchange = createSimExchange({
    venue: 'aster',
    seed: 14,
    clock: { now: () => Date.now() },
  })
  let fake: AsterFake
  beforeAll(async () => {
    // a venue publishing a tenth of Aster's weight limit, and enforcing it
    fake = await startAsterFake({
      exchange,
      port: 0,
      rateLimits: {
        enforce: true,
        limits: [
          {
            id: 'REQUEST_WEIGHT',
            capacity: 240,
            windowMs: 60_000,
            per: 'ip',
          },
        ],
      },
    })
  })
  afterAll(() => fake.close())

  test('behavior: the budget takes exchangeInfo limits and is never refused', async () => {
    const budget = createAsterBudget({ share: 0.5 })
    const adapter = createAsterAdapter({
      baseUrl: fake.url,
      budget,
      marketMaxAgeMs: 0,
    })
    await adapter.rules('ETHUSDT')
    expect(
      budget.limits().find((l) => l.id === 'REQUEST_WEIGHT')?.capacity,
    ).toBe(240)
    // quotes until the budget says no: the venue never has to
    let refused: unknown
    for (let i = 0; i < 100 && !refused; i++) {
      await adapter.quote('ETHUSDT').catch((e: unknown) => {
        refused = e
      })
    }
    expect(String(refused)).toMatch(/budget is spent/)
    const weight = fake
      .rateLimitUsage()
      .find((u) => u.limit === 'REQUEST_WEIGHT')
    expect(weight?.refused ?? 0).toBe(0)
    expect(weight?.peak ?? 0).toBeLessThanOrEqual(120)
    expect(weight?.peak ?? 0).toBeGreaterThan(60)
  })
})
