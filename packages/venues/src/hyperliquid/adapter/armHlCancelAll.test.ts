import {
  dec,
  roundPrice,
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
import { createHyperliquidAdapter } from './createHyperliquidAdapter.js'

/** The dead-man switch (`scheduleCancel`) against the protocol fake. */
describe('Hyperliquid armCancelAll against the fake', () => {
  let t = Date.UTC(2026, 10, 26, 1)
  const clock = { now: () => t }
  const exchange = createSimExchange({ venue: 'hl', seed: 5, clock })
  let fake: HyperliquidFake
  let adapter: ReturnType<typeof createHyperliquidAdapter>
  let cred: VenueCredential
  let n = 0

  beforeAll(async () => {
    fake = await startHyperliquidFake({ exchange, port: 0, now: clock.now })
    adapter = createHyperliquidAdapter({
      baseUrl: fake.url,
      isMainnet: true,
      clock,
    })
    const owner = privateKeyToAccount(generatePrivateKey()).address
    const agentKey = generatePrivateKey()
    const agent = privateKeyToAccount(agentKey).address.toLowerCase()
    exchange.faucet(owner.toLowerCase(), 100_000)
    fake.seedAgent(owner.toLowerCase(), agent)
    cred = {
      owner,
      venue: 'hl',
      accountIndex: null,
      credentialRef: agent,
      secret: agentKey,
    }
  })
  afterAll(async () => {
    await fake?.close()
  })

  /** a GTC buy at half the mark: it rests */
  async function rest(): Promise<string> {
    const rules = await adapter.rules('ETH')
    if (!rules) throw new Error('no ETH')
    const mark = dec(exchange.quote('ETH').mark)
    const clientOrderId = `0x${(++n).toString(16).padStart(32, '0')}`
    const placed = await adapter.place(cred, {
      market: 'ETH',
      side: 'long',
      size: '0.01',
      price: roundPrice(rules, mark.div(2), 'down').toFixed(),
      timeInForce: 'gtc',
      reduceOnly: false,
      clientOrderId,
    })
    expect(placed.state).toBe('open')
    return clientOrderId
  }

  test('behavior: armed, the resting order is cancelled when its time passes', async () => {
    const id = await rest()
    expect(adapter.cancelAllSwitch).toEqual({
      scope: 'account',
      minLeadMs: 5_000,
      maxLeadMs: 86_400_000,
    })
    await adapter.armCancelAll?.(cred, ['ETH'], t + 60_000)
    t += 59_000
    expect((await adapter.order(cred, 'ETH', id))?.state).toBe('open')
    t += 2_000
    const seen = await adapter.order(cred, 'ETH', id)
    expect(seen?.state).toBe('cancelled')
    expect(seen?.venueStatus).toBe('scheduledCancel')
  })

  test('behavior: re-armed later, it fires at the new time only', async () => {
    const id = await rest()
    await adapter.armCancelAll?.(cred, ['ETH'], t + 30_000)
    t += 20_000
    await adapter.armCancelAll?.(cred, ['ETH'], t + 30_000)
    t += 20_000
    expect((await adapter.order(cred, 'ETH', id))?.state).toBe('open')
    t += 11_000
    expect((await adapter.order(cred, 'ETH', id))?.state).toBe('cancelled')
  })

  test('behavior: cleared, the resting order stays', async () => {
    const id = await rest()
    await adapter.armCancelAll?.(cred, ['ETH'], t + 60_000)
    await adapter.armCancelAll?.(cred, ['ETH'], null)
    t += 120_000
    expect((await adapter.order(cred, 'ETH', id))?.state).toBe('open')
    await adapter.cancel(cred, 'ETH', id)
  })

  test('error: a time under 5 s ahead is refused, as the venue does', async () => {
    await expect(
      adapter.armCancelAll?.(cred, ['ETH'], t + 4_000),
    ).rejects.toThrow(VenueRejectedError)
    await adapter.armCancelAll?.(cred, ['ETH'], t + 5_000)
    await adapter.armCancelAll?.(cred, ['ETH'], null)
  })

  test('error: the fake refuses arming after 10 triggers in a UTC day', async () => {
    // the earlier tests fired twice today
    t = Date.UTC(2026, 10, 27, 1)
    for (let i = 0; i < 10; i++) {
      await adapter.armCancelAll?.(cred, ['ETH'], t + 6_000)
      t += 7_000
    }
    await expect(
      adapter.armCancelAll?.(cred, ['ETH'], t + 6_000),
    ).rejects.toThrow(/Too many scheduled cancel triggers/)
    // the count resets at 00:00 UTC
    t = Date.UTC(2026, 10, 28, 0, 0, 1)
    await adapter.armCancelAll?.(cred, ['ETH'], null)
  })
})
