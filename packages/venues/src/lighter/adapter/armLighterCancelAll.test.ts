import { dec, roundPrice, VenueRejectedError } from '@dn/core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  type LighterTestBed,
  openLighterTestBed,
} from '../../sim/testing/lighterTestBed.js'
import { createLighterAdapter } from './createLighterAdapter.js'
import type { LighterRejectedError } from './lighterRejectedError.js'

const MIN = 60_000

/** The dead-man switch (scheduled CancelAllOrders) against the fake. */
describe('Lighter armCancelAll against the protocol fake', () => {
  let t = Date.UTC(2026, 10, 26, 1)
  const clock = { now: () => t }
  let bed: LighterTestBed
  let adapter: ReturnType<typeof createLighterAdapter>
  let n = 0

  beforeAll(async () => {
    bed = await openLighterTestBed('lighter', 43, clock)
    adapter = createLighterAdapter({
      venue: 'lighter',
      baseUrl: bed.fake.url,
      tier: 'builder',
      clock,
    })
  })
  afterAll(() => bed?.fake.close())

  /** a GTC buy at 80 % of the mark: it rests */
  async function rest(): Promise<string> {
    const rules = await adapter.rules('ETH')
    if (!rules) throw new Error('no ETH')
    const mark = dec((await adapter.quote('ETH')).mark)
    const clientOrderId = `0x${(++n).toString(16).padStart(32, '0')}`
    const placed = await adapter.place(bed.cred, {
      market: 'ETH',
      side: 'long',
      size: '0.01',
      price: roundPrice(rules, mark.mul(0.8), 'down').toFixed(),
      timeInForce: 'gtc',
      reduceOnly: false,
      clientOrderId,
    })
    expect(placed.state).toBe('open')
    return clientOrderId
  }

  test('behavior: scheduled, the resting order is cancelled at its time', async () => {
    const id = await rest()
    expect(adapter.cancelAllSwitch).toEqual({
      scope: 'account',
      minLeadMs: 5 * MIN,
      maxLeadMs: 15 * 1440 * MIN,
    })
    await adapter.armCancelAll?.(bed.cred, ['ETH'], t + 6 * MIN)
    t += 6 * MIN - 1_000
    expect((await adapter.order(bed.cred, 'ETH', id))?.state).toBe('open')
    t += 2_000
    const seen = await adapter.order(bed.cred, 'ETH', id)
    expect(seen?.state).toBe('cancelled')
    expect(seen?.venueStatus).toBe('canceled')
  })

  test('behavior: aborted, the resting order stays', async () => {
    const id = await rest()
    await adapter.armCancelAll?.(bed.cred, ['ETH'], t + 6 * MIN)
    await adapter.armCancelAll?.(bed.cred, ['ETH'], null)
    t += 10 * MIN
    expect((await adapter.order(bed.cred, 'ETH', id))?.state).toBe('open')
    await adapter.cancel(bed.cred, 'ETH', id)
  })

  test('error: a time under 5 minutes ahead is refused, nonce kept', async () => {
    const err = await adapter
      .armCancelAll?.(bed.cred, ['ETH'], t + 4 * MIN)
      .then(
        () => undefined,
        (e: unknown) => e,
      )
    expect(err).toBeInstanceOf(VenueRejectedError)
    expect((err as LighterRejectedError).lighterCode).toBe(21714)
    // the refused tx did not use its nonce: the next one goes through
    await adapter.armCancelAll?.(bed.cred, ['ETH'], t + 5 * MIN)
    await adapter.armCancelAll?.(bed.cred, ['ETH'], null)
  })
})
