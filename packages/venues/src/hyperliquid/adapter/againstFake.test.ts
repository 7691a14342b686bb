import {
  type BindingConfig,
  dec,
  decString,
  roundPrice,
  UncertainSubmissionError,
  type VenueCredential,
  VenueRejectedError,
} from '@dn/core'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  type HyperliquidFake,
  startHyperliquidFake,
} from '../../sim/hyperliquidFake/startHyperliquidFake.js'
import { createSimExchange } from '../../sim/simExchange.js'
import { createHyperliquidBinder } from '../binder/createHyperliquidBinder.js'
import { createHyperliquidAdapter } from './createHyperliquidAdapter.js'

const config: BindingConfig = {
  feeApproval: false,
  builderAddress: `0x${'00'.repeat(20)}`,
  builderName: 'dn',
  lighterTestnet: false,
}

/**
 * The real-protocol adapter and binder against the signature-checking fake:
 * bind an agent with a wallet's signature, then trade with the agent key.
 */
describe('Hyperliquid adapter and binder against the protocol fake', () => {
  const exchange = createSimExchange({
    venue: 'hl',
    seed: 11,
    clock: { now: () => Date.now() },
  })
  let fake: HyperliquidFake
  let cred: VenueCredential
  let adapter: ReturnType<typeof createHyperliquidAdapter>
  beforeAll(async () => {
    fake = await startHyperliquidFake({ exchange, port: 0 })
    adapter = createHyperliquidAdapter({ baseUrl: fake.url, isMainnet: true })
    const wallet = privateKeyToAccount(generatePrivateKey())
    const owner = wallet.address.toLowerCase()
    exchange.faucet(owner, 100_000)
    const binder = createHyperliquidBinder({
      baseUrl: fake.url,
      isMainnet: true,
    })
    const prepared = await binder.prepare(owner, { venue: 'hl' }, config)
    const signatures: Record<string, string> = {}
    for (const r of prepared.requests) {
      if (r.method === 'eth_signTypedData_v4') {
        signatures[r.requestId] = await wallet.signTypedData(
          r.payload as Parameters<typeof wallet.signTypedData>[0],
        )
      }
    }
    expect(
      await binder.complete(owner, {
        target: { venue: 'hl' },
        ...prepared,
        signatures,
      }),
    ).toEqual({ outcome: 'bound' })
    cred = {
      owner,
      venue: 'hl',
      accountIndex: null,
      credentialRef: prepared.credentialRef,
      secret: prepared.secret,
    }
  })
  afterAll(() => fake.close())

  const cloid = () =>
    `0x${[...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('')}`

  async function marketBuy(size: string, clientOrderId = cloid()) {
    const rules = await adapter.rules('BTC')
    const quote = await adapter.quote('BTC')
    if (!rules) throw new Error('BTC not listed')
    const price = roundPrice(rules, Number(quote.mark) * 1.01, 'up').toFixed()
    return adapter.place(cred, {
      market: 'BTC',
      side: 'long',
      size,
      price,
      timeInForce: 'ioc',
      reduceOnly: false,
      clientOrderId,
    })
  }

  test('default: an IOC fills, is found by cloid, and shows as a position', async () => {
    const id = cloid()
    const placed = await marketBuy('0.002', id)
    expect(placed).toMatchObject({
      clientOrderId: id,
      state: 'filled',
      filledBase: '0.002',
    })
    const found = await adapter.order(cred, 'BTC', id)
    expect(found).toMatchObject({ state: 'filled', filledBase: '0.002' })
    // orderStatus has no price: the average comes from the order's fills
    expect(found?.averagePrice).toBe(placed.averagePrice)
    const pos = (await adapter.positions(cred)).find((p) => p.market === 'BTC')
    expect(pos?.size).toBe('0.002')
  })

  test('behavior: a reduce-only IOC larger than the position fills what it reduces; a lookup shows that fill, the rest cancelled', async () => {
    const held = Number(
      (await adapter.positions(cred)).find((p) => p.market === 'BTC')?.size ??
        '0',
    )
    await marketBuy('0.002')
    const rules = await adapter.rules('BTC')
    const quote = await adapter.quote('BTC')
    if (!rules) throw new Error('BTC not listed')
    const size = decString(dec(held).add('0.002').mul(2))
    const id = cloid()
    const placed = await adapter.place(cred, {
      market: 'BTC',
      side: 'short',
      size,
      price: roundPrice(rules, Number(quote.mark) * 0.99, 'down').toFixed(),
      timeInForce: 'ioc',
      reduceOnly: true,
      clientOrderId: id,
    })
    const reduced = decString(dec(held).add('0.002'))
    expect(placed).toMatchObject({ state: 'cancelled', filledBase: reduced })
    // what dn reads when the send's answer was lost: origSz − sz
    expect(await adapter.order(cred, 'BTC', id)).toMatchObject({
      state: 'cancelled',
      filledBase: reduced,
      venueStatus: 'reduceOnlyCanceled',
    })
  })

  test("behavior: balances are the positions read's own marginSummary, no request of their own", async () => {
    const requests = () =>
      fake.rateLimitUsage().reduce((n, b) => n + b.requests, 0)
    await marketBuy('0.002')
    await adapter.positions(cred)
    const sent = requests()
    const b = await adapter.balances?.(cred, { maxAgeMs: 60_000 })
    expect(requests()).toBe(sent)
    // the engine's view now (a mark step may have passed since the read)
    const account = exchange.account(cred.owner)
    const near = (x: string | undefined, y: string) =>
      Math.abs(Number(x) - Number(y)) / Number(y) < 0.001
    expect(near(b?.equityUsd, account.crossEquityUsd)).toBe(true)
    expect(near(b?.availableUsd, account.freeMarginUsd)).toBe(true)
    expect(Number(b?.marginUsedUsd)).toBeGreaterThan(0)
    // asked younger than the last read: one clearinghouseState
    await adapter.balances?.(cred)
    expect(requests()).toBe(sent + 1)
  })

  test('behavior: a resting order is cancelled by cloid', async () => {
    const quote = await adapter.quote('BTC')
    const id = cloid()
    const price = String(Math.floor(Number(quote.mark) * 0.9))
    const placed = await adapter.place(cred, {
      market: 'BTC',
      side: 'long',
      size: '0.001',
      price,
      timeInForce: 'gtc',
      reduceOnly: false,
      clientOrderId: id,
    })
    expect(placed.state).toBe('open')
    await adapter.cancel(cred, 'BTC', id)
    expect((await adapter.order(cred, 'BTC', id))?.state).toBe('cancelled')
  })

  test('error: a key the wallet never approved is refused by the venue', async () => {
    const stranger = { ...cred, secret: generatePrivateKey() }
    const quote = await adapter.quote('BTC')
    await expect(
      adapter.place(stranger, {
        market: 'BTC',
        side: 'long',
        size: '0.001',
        price: String(Math.floor(Number(quote.mark))),
        timeInForce: 'gtc',
        reduceOnly: false,
        clientOrderId: cloid(),
      }),
    ).rejects.toBeInstanceOf(VenueRejectedError)
  })

  test('behavior: a timeout after the venue accepted is uncertain, then found by cloid, never doubled', async () => {
    exchange.setFaults({ timeoutAfterAcceptRate: 1 })
    const id = cloid()
    await expect(marketBuy('0.001', id)).rejects.toBeInstanceOf(
      UncertainSubmissionError,
    )
    exchange.setFaults({})
    expect((await adapter.order(cred, 'BTC', id))?.state).toBe('filled')
    expect(exchange.stats().byClientOrderId.get(id)).toBe(1)
  })

  test('behavior: two workers with their own nonce clocks collide at the venue; a shared counter does not', async () => {
    // two worker processes signing for one agent in the same millisecond
    const at = Date.now()
    const pinned = { now: () => at }
    const quote = await adapter.quote('BTC')
    const order = () => ({
      market: 'BTC',
      side: 'long' as const,
      size: '0.001',
      price: String(Math.floor(Number(quote.mark) * 0.9)),
      timeInForce: 'gtc' as const,
      reduceOnly: false,
      clientOrderId: cloid(),
    })
    const own = () =>
      createHyperliquidAdapter({
        baseUrl: fake.url,
        isMainnet: true,
        clock: pinned,
      })
    const [a, b] = [own(), own()]
    const first = await a.place(cred, order())
    expect(first.state).toBe('open')
    const second = b.place(cred, order())
    await expect(second).rejects.toBeInstanceOf(VenueRejectedError)
    await expect(second).rejects.toThrow(/nonce/i)

    // the store's counter: max(previous + 1, now), shared by every worker
    let last = 0
    const later = { now: () => at + 1_000 }
    const counter = async (_signer: string, now: number) => {
      last = Math.max(last + 1, now)
      return last
    }
    const shared = () =>
      createHyperliquidAdapter({
        baseUrl: fake.url,
        isMainnet: true,
        clock: later,
        nonceSource: counter,
      })
    const [c, d] = [shared(), shared()]
    const placed = await Promise.all([
      c.place(cred, order()),
      d.place(cred, order()),
      c.place(cred, order()),
    ])
    expect(placed.map((p) => p.state)).toEqual(['open', 'open', 'open'])
  })

  test('behavior: a builder-deployed (HIP-3) market trades under its dex asset id', async () => {
    const rules = await adapter.rules('xyz:TSLA')
    expect(rules).toMatchObject({ symbol: 'xyz:TSLA', maxSigFigs: 5 })
    const quote = await adapter.quote('xyz:TSLA')
    if (!rules) throw new Error('xyz:TSLA not listed')
    const id = cloid()
    const size = rules.sizeStep
    const units = Math.ceil(12 / Number(quote.mark) / Number(size))
    const placed = await adapter.place(cred, {
      market: 'xyz:TSLA',
      side: 'short',
      size: decString(dec(size).mul(units)),
      price: roundPrice(rules, Number(quote.mark) * 0.99, 'down').toFixed(),
      timeInForce: 'ioc',
      reduceOnly: false,
      clientOrderId: id,
    })
    expect(placed.state).toBe('filled')
    // the fake placed it on xyz:TSLA, so the asset id named that market
    expect(exchange.order(cred.owner, id, 'xyz:TSLA')?.state).toBe('filled')
    const pos = (await adapter.positions(cred)).find(
      (p) => p.market === 'xyz:TSLA',
    )
    expect(pos?.size).toBe(`-${placed.filledBase}`)
    // and the main dex's BTC position is still reported beside it
    expect(
      (await adapter.positions(cred)).some((p) => p.market === 'BTC'),
    ).toBe(true)
  })

  test('behavior: an order action delayed past its expiresAfter is refused, never placed', async () => {
    // a clock two minutes behind stands for a request stuck in transit
    const late = createHyperliquidAdapter({
      baseUrl: fake.url,
      isMainnet: true,
      clock: { now: () => Date.now() - 120_000 },
    })
    const quote = await adapter.quote('BTC')
    const id = cloid()
    await expect(
      late.place(cred, {
        market: 'BTC',
        side: 'long',
        size: '0.001',
        price: String(Math.floor(Number(quote.mark) * 0.9)),
        timeInForce: 'gtc',
        reduceOnly: false,
        clientOrderId: id,
      }),
    ).rejects.toThrow(/expired/i)
    expect(exchange.stats().byClientOrderId.get(id)).toBeUndefined()
  })
})
