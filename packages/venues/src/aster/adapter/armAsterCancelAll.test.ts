import {
  dec,
  roundPrice,
  type VenueCredential,
  VenueRejectedError,
} from '@dn/core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { bindAsterWallet } from '../../sim/asterFake/asterTestKit.js'
import {
  type AsterFake,
  startAsterFake,
} from '../../sim/asterFake/startAsterFake.js'
import { createSimExchange } from '../../sim/simExchange.js'
import { AsterRejectedError } from './asterRejectedError.js'
import { createAsterAdapter } from './createAsterAdapter.js'

/** The dead-man switch (`countdownCancelAll`) against the protocol fake. */
describe('Aster armCancelAll against the fake', () => {
  let t = Date.UTC(2026, 10, 26, 1)
  const clock = { now: () => t }
  const exchange = createSimExchange({ venue: 'aster', seed: 7, clock })
  let fake: AsterFake
  let adapter: ReturnType<typeof createAsterAdapter>
  let cred: VenueCredential
  let n = 0

  beforeAll(async () => {
    fake = await startAsterFake({ exchange, port: 0, now: clock.now })
    adapter = createAsterAdapter({ baseUrl: fake.url, clock })
    cred = (await bindAsterWallet(fake.url, exchange, { clock })).cred
    // the binder's nonces came from the same instant: the adapter's differ
    t += 1_000
  })
  afterAll(() => fake?.close())

  /** a GTC buy at 80 % of the mark on `market`: it rests */
  async function rest(market: string): Promise<string> {
    const rules = await adapter.rules(market)
    if (!rules) throw new Error(`no ${market}`)
    const mark = dec(exchange.quote(market).mark)
    const clientOrderId = `0x${(++n).toString(16).padStart(32, '0')}`
    const min = dec(rules.minNotionalUsd).div(mark.mul(0.8))
    const size = min.div(rules.sizeStep).ceil().add(1).mul(rules.sizeStep)
    const placed = await adapter.place(cred, {
      market,
      side: 'long',
      size: size.toFixed(),
      price: roundPrice(rules, mark.mul(0.8), 'down').toFixed(),
      timeInForce: 'gtc',
      reduceOnly: false,
      clientOrderId,
    })
    expect(placed.state).toBe('open')
    return clientOrderId
  }

  test('behavior: armed per symbol, the countdown cancels that symbol only', async () => {
    const eth = await rest('ETHUSDT')
    const btc = await rest('BTCUSDT')
    expect(adapter.cancelAllSwitch?.scope).toBe('market')
    await adapter.armCancelAll?.(cred, ['ETHUSDT'], t + 60_000)
    t += 59_000
    expect((await adapter.order(cred, 'ETHUSDT', eth))?.state).toBe('open')
    t += 2_000
    const seen = await adapter.order(cred, 'ETHUSDT', eth)
    expect(seen?.state).toBe('cancelled')
    expect(seen?.venueStatus).toBe('CANCELED')
    expect((await adapter.order(cred, 'BTCUSDT', btc))?.state).toBe('open')
    await adapter.cancel(cred, 'BTCUSDT', btc)
  })

  test('behavior: a heartbeat replaces the countdown; 0 stops it', async () => {
    const eth = await rest('ETHUSDT')
    const btc = await rest('BTCUSDT')
    await adapter.armCancelAll?.(cred, ['ETHUSDT', 'BTCUSDT'], t + 30_000)
    t += 20_000
    await adapter.armCancelAll?.(cred, ['ETHUSDT', 'BTCUSDT'], t + 30_000)
    await adapter.armCancelAll?.(cred, ['BTCUSDT'], null)
    t += 20_000
    expect((await adapter.order(cred, 'ETHUSDT', eth))?.state).toBe('open')
    t += 11_000
    expect((await adapter.order(cred, 'ETHUSDT', eth))?.state).toBe('cancelled')
    expect((await adapter.order(cred, 'BTCUSDT', btc))?.state).toBe('open')
    await adapter.cancel(cred, 'BTCUSDT', btc)
  })

  test('error: an unknown symbol is refused as the venue does (-1121)', async () => {
    const err = await adapter
      .armCancelAll?.(cred, ['NOPEUSDT'], t + 60_000)
      .then(
        () => undefined,
        (e: unknown) => e,
      )
    expect(err).toBeInstanceOf(AsterRejectedError)
    expect((err as AsterRejectedError).venueCode).toBe(-1121)
  })

  test('error: a time not ahead is refused before sending', async () => {
    await expect(adapter.armCancelAll?.(cred, ['ETHUSDT'], t)).rejects.toThrow(
      VenueRejectedError,
    )
  })
})
